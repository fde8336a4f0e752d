import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import type { ToolResult } from '../tool';
import { BuiltinTool, fileErrorResult, textResult } from './builtin-tool';

interface WriteArgs {
  readonly path: string;
  readonly content: string;
}

/** `Write`: a whole text file, created with its parent folders or overwritten. */
export class WriteTool extends BuiltinTool<WriteArgs> {
  readonly name = 'Write';
  readonly description = 'Writes a text file (UTF-8), creating missing parent folders. An existing file is overwritten.';
  readonly inputSchema = {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The file, absolute or relative to the working directory.' },
      content: { type: 'string', description: 'The complete new content of the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'mutating', destructive: true, basis: 'declared' } as const;

  protected override pathsOf(args: WriteArgs): readonly string[] {
    return [args.path];
  }

  protected async run({ path: file, content }: WriteArgs): Promise<ToolResult> {
    const absolute = this.resolve(file);
    const shown = this.display(absolute);
    try {
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, content, 'utf8');
    } catch (error) {
      return fileErrorResult(error, shown);
    }
    const bytes = Buffer.byteLength(content, 'utf8');
    return textResult(`wrote ${bytes} byte(s) to ${shown}`, { path: shown, bytes });
  }
}
