import { stat } from 'node:fs/promises';

import { Minimatch } from 'minimatch';

import { errorResult, type ToolResult } from '../tool';
import { BuiltinTool, fileErrorResult, textResult } from './builtin-tool';
import { walkFiles } from './walk-files';

interface GlobArgs {
  readonly pattern: string;
  readonly path?: string;
}

/** At most this many paths are listed; the result says how many matched in all. */
export const GLOB_MAX_RESULTS = 1000;

/** `Glob`: the files under a folder whose relative path matches a glob pattern. */
export class GlobTool extends BuiltinTool<GlobArgs> {
  readonly name = 'Glob';
  readonly description =
    'Lists the files under a folder whose path, relative to that folder, matches a glob pattern ' +
    '(`*`, `?`, `**`, `[abc]`, `{a,b}`; names starting with a dot only match when the pattern spells the dot). ' +
    `In path order; at most ${GLOB_MAX_RESULTS} paths.`;
  readonly inputSchema = {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'The glob pattern, e.g. "src/**/*.ts".' },
      path: {
        type: 'string',
        minLength: 1,
        description: 'The folder to search, absolute or relative to the working directory. Default: the working directory.',
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'read-only', destructive: false, basis: 'declared' } as const;

  protected override pathsOf(args: GlobArgs): readonly string[] {
    return [args.path ?? '.'];
  }

  protected async run({ pattern, path: folder = '.' }: GlobArgs, signal?: AbortSignal): Promise<ToolResult> {
    const root = this.resolve(folder);
    const shown = this.display(root);
    try {
      if (!(await stat(root)).isDirectory()) return errorResult(`${shown} is not a folder`);
    } catch (error) {
      return fileErrorResult(error, shown);
    }
    const matcher = new Minimatch(pattern, { dot: false });
    const matches: string[] = [];
    // The walk goes in path order, so the list needs no sorting.
    for await (const file of walkFiles(root, {
      enter: (relative) => matcher.match(relative, true),
      exclude: (absolute) => this.isOffLimits(absolute),
      signal,
    })) {
      if (matcher.match(file.relative)) matches.push(this.display(file.absolute));
    }
    const listed = matches.slice(0, GLOB_MAX_RESULTS);
    const note =
      matches.length > listed.length ? `\n[${listed.length} of ${matches.length} matching files listed; narrow the pattern]` : '';
    const text = matches.length === 0 ? `no files under ${shown} match ${pattern}` : listed.join('\n') + note;
    return textResult(text, { files: listed, total: matches.length });
  }
}
