import { readFile, stat } from 'node:fs/promises';

import { errorResult, type ToolResult } from '../tool';
import { BuiltinTool, cutToBytes, fileErrorResult, looksBinary, textResult } from './builtin-tool';

interface ReadArgs {
  readonly path: string;
  readonly offset?: number;
  readonly limit?: number;
}

/** At most this much text comes back per call; `offset` and `limit` page through the rest. */
export const READ_MAX_OUTPUT_BYTES = 256 * 1024;
/** Larger files are refused: reading them whole to page through them would cost too much memory. */
const READ_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** `Read`: a text file, or a range of its lines. */
export class ReadTool extends BuiltinTool<ReadArgs> {
  readonly name = 'Read';
  readonly description =
    'Reads a text file. Optional `offset` (first line, 1-based) and `limit` (number of lines) select a range. ' +
    `At most ${READ_MAX_OUTPUT_BYTES / 1024} KiB are returned per call; the result says when more lines follow.`;
  readonly inputSchema = {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The file, absolute or relative to the working directory.' },
      offset: { type: 'integer', minimum: 1, description: 'The first line to return (1-based). Default 1.' },
      limit: { type: 'integer', minimum: 1, description: 'How many lines to return at most. Default: all (within the size bound).' },
    },
    required: ['path'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'read-only', destructive: false, basis: 'declared' } as const;

  protected override pathsOf(args: ReadArgs): readonly string[] {
    return [args.path];
  }

  protected async run({ path: file, offset = 1, limit }: ReadArgs): Promise<ToolResult> {
    const absolute = this.resolve(file);
    const shown = this.display(absolute);
    let content: Buffer;
    try {
      const info = await stat(absolute);
      if (info.isDirectory()) return errorResult(`${shown} is a directory, not a file; use Glob to list files`);
      if (info.size > READ_MAX_FILE_BYTES)
        return errorResult(`${shown} is too large to read (${info.size} bytes; at most ${READ_MAX_FILE_BYTES})`);
      content = await readFile(absolute);
    } catch (error) {
      return fileErrorResult(error, shown);
    }
    if (looksBinary(content)) return errorResult(`${shown} is a binary file, not text`);

    const lines = content.toString('utf8').split('\n');
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // the final newline ends a line, it starts none
    const total = content.length === 0 ? 0 : lines.length;
    if (total === 0 && offset === 1) return textResult('', { path: shown, firstLine: 1, lastLine: 0, totalLines: 0 });
    if (offset > total) return errorResult(`${shown} has ${total} line(s); offset ${offset} is past its end`);
    const wanted = lines.slice(offset - 1, limit === undefined ? undefined : offset - 1 + limit);
    const { text, cut } = cutToBytes(wanted.join('\n'), READ_MAX_OUTPUT_BYTES);
    const returned = cut ? text.split('\n').length - 1 : wanted.length; // a cut keeps only whole lines
    if (cut && returned === 0) {
      const note = `\n[line ${offset} is longer than ${READ_MAX_OUTPUT_BYTES / 1024} KiB and was cut]`;
      return textResult(text + note, { path: shown, firstLine: offset, lastLine: offset, totalLines: total });
    }
    const kept = cut ? text.slice(0, text.lastIndexOf('\n')) : text;
    const lastLine = offset - 1 + returned;
    const note = lastLine < total ? `\n[lines ${offset}-${lastLine} of ${total}; continue with offset ${lastLine + 1}]` : '';
    return textResult(kept + note, { path: shown, firstLine: offset, lastLine, totalLines: total });
  }
}
