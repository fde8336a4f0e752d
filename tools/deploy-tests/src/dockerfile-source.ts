export interface Instruction {
  keyword: string;
  args: string;
}
export interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Dockerfile instructions with continuation lines joined and comments dropped, grouped by FROM. */
export function stagesOf(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ from, name, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** The arguments of each instruction of `keyword` in a stage, in order. */
export function all(stage: Stage | undefined, keyword: string): string[] {
  return stage?.instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args) ?? [];
}

/** What a stage's `ENV KEY=value ...` instructions set (unquoted values, the form this Dockerfile uses). */
export function environmentOf(stage: Stage): Record<string, string> {
  return Object.fromEntries(
    all(stage, 'ENV').flatMap((args) => [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S*)/g)].map((match) => [match[1], match[2]])),
  );
}
