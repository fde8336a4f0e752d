import { parse } from 'yaml';

/** A SKILL.md split in two: its YAML front matter as an object, and the instructions after it. */
export interface SkillDocument {
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly body: string;
}

// The Agent Skills format's front matter (the suite's own pattern): `---`, YAML, `---`, an optional BOM first.
const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Reads a SKILL.md's text; a file without front matter, or whose front matter is no YAML mapping, throws saying so. */
export function parseSkillDocument(text: string): SkillDocument {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error('SKILL.md does not start with YAML front matter between two "---" lines');
  let frontmatter: unknown;
  try {
    frontmatter = parse(match[1]);
  } catch (error) {
    throw new Error(`SKILL.md's front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  if (typeof frontmatter !== 'object' || frontmatter === null || Array.isArray(frontmatter))
    throw new Error("SKILL.md's front matter is not a mapping of fields");
  return { frontmatter: frontmatter as Record<string, unknown>, body: text.slice(match[0].length) };
}

/** The front matter's `name` and `description`, which every skill needs to be offered; undefined when either is missing. */
export function skillHeadline(frontmatter: Readonly<Record<string, unknown>>): { name: string; description: string } | undefined {
  const { name, description } = frontmatter;
  return typeof name === 'string' && name !== '' && typeof description === 'string' && description !== ''
    ? { name, description }
    : undefined;
}
