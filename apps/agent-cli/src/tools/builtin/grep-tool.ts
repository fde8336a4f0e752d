import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import { compileLinearRegExp, errorMessage, type LinearRegExp } from '@toolmesh/protocol';
import { Minimatch } from 'minimatch';

import { errorResult, type ToolResult } from '../tool';
import { BuiltinTool, fileErrorResult, looksBinary, textResult } from './builtin-tool';
import { type WalkedFile, walkFiles } from './walk-files';

interface GrepArgs {
  readonly pattern: string;
  readonly path?: string;
  readonly glob?: string;
  readonly ignore_case?: boolean;
}

/** At most this many matching lines are returned. */
export const GREP_MAX_MATCHES = 500;
/** A matching line is shown up to this many characters. */
const GREP_MAX_LINE_CHARS = 500;
/** Larger files are skipped (and counted as skipped). */
const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** `Grep`: lines matching a regular expression in the files under a folder, as `path:line:text`. */
export class GrepTool extends BuiltinTool<GrepArgs> {
  readonly name = 'Grep';
  readonly description =
    'Searches files for lines matching a JavaScript regular expression and returns them as `path:line:text`, ' +
    'in path order. `path` is a folder (searched recursively) or one file; `glob` keeps only files whose path ' +
    `relative to that folder (or, for a pattern without "/", whose name) matches. Binary files are skipped; at most ${GREP_MAX_MATCHES} lines.`;
  readonly inputSchema = {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'The regular expression (JavaScript syntax without back-references or lookarounds; matched in linear time), e.g. "export (class|function) \\\\w+".',
      },
      path: {
        type: 'string',
        minLength: 1,
        description: 'The folder or file to search, absolute or relative to the working directory. Default: the working directory.',
      },
      glob: { type: 'string', minLength: 1, description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.md".' },
      ignore_case: { type: 'boolean', description: 'Match case-insensitively. Default false.' },
    },
    required: ['pattern'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'read-only', destructive: false, basis: 'declared' } as const;

  protected override pathsOf(args: GrepArgs): readonly string[] {
    return [args.path ?? '.'];
  }

  protected async run(
    { pattern, path: target = '.', glob, ignore_case: ignoreCase = false }: GrepArgs,
    signal?: AbortSignal,
  ): Promise<ToolResult> {
    let regex: LinearRegExp;
    try {
      // RE2, not V8's backtracking engine: the pattern is the model's and the files may be anyone's, and a
      // pattern like (a+)+$ on a long line would freeze the CLI (ADR 0012).
      regex = compileLinearRegExp(pattern, { ignoreCase });
    } catch (error) {
      return errorResult(`invalid regular expression: ${errorMessage(error)}`);
    }
    const root = this.resolve(target);
    let files: AsyncIterable<WalkedFile> | WalkedFile[];
    try {
      const filter = glob === undefined ? undefined : new Minimatch(glob, { dot: true, matchBase: !glob.includes('/') });
      const all = (await stat(root)).isDirectory()
        ? walkFiles(root, { exclude: (absolute) => this.isOffLimits(absolute), signal })
        : [{ absolute: root, relative: path.basename(root) }];
      files = filter ? onlyMatching(all, filter) : all;
    } catch (error) {
      return fileErrorResult(error, this.display(root));
    }

    const lines: string[] = [];
    let skipped = 0;
    let more = false;
    search: for await (const file of files) {
      const content = await readText(file.absolute);
      if (content === undefined) {
        skipped++;
        continue;
      }
      const fileLines = content.split('\n');
      for (let i = 0; i < fileLines.length; i++) {
        const line = fileLines[i].replace(/\r$/, '');
        if (!regex.test(line)) continue;
        if (lines.length === GREP_MAX_MATCHES) {
          more = true;
          break search;
        }
        const text = line.length > GREP_MAX_LINE_CHARS ? `${line.slice(0, GREP_MAX_LINE_CHARS)}…` : line;
        lines.push(`${this.display(file.absolute)}:${i + 1}:${text}`);
      }
    }
    const notes = [
      ...(more ? [`[stopped after ${GREP_MAX_MATCHES} matching lines; narrow the pattern, path or glob]`] : []),
      ...(skipped > 0 ? [`[${skipped} binary, unreadable or too large file(s) skipped]`] : []),
    ];
    const text = [...(lines.length === 0 ? [`no lines match ${pattern}`] : lines), ...notes].join('\n');
    return textResult(text, { matches: lines, truncated: more, skippedFiles: skipped });
  }
}

async function* onlyMatching(files: AsyncIterable<WalkedFile> | WalkedFile[], filter: Minimatch): AsyncGenerator<WalkedFile> {
  for await (const file of files) if (filter.match(file.relative)) yield file;
}

/** The file's text, or `undefined` when it is binary, too large or unreadable. */
async function readText(file: string): Promise<string | undefined> {
  try {
    if ((await stat(file)).size > GREP_MAX_FILE_BYTES) return undefined;
    const content = await readFile(file);
    return looksBinary(content) ? undefined : content.toString('utf8');
  } catch {
    return undefined;
  }
}
