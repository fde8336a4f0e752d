import { readFile, writeFile } from 'node:fs/promises';

import { errorResult, type ToolResult } from '../tool';
import { BuiltinTool, fileErrorResult, looksBinary, textResult } from './builtin-tool';

interface EditArgs {
  readonly path: string;
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean;
}

/** `Edit`: replaces an exact string in a text file; refuses when the string is absent or ambiguous. */
export class EditTool extends BuiltinTool<EditArgs> {
  readonly name = 'Edit';
  readonly description =
    'Replaces `old_string` with `new_string` in a text file. `old_string` must occur exactly once, ' +
    'unless `replace_all` is true, which replaces every occurrence.';
  readonly inputSchema = {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The file, absolute or relative to the working directory.' },
      old_string: { type: 'string', minLength: 1, description: 'The exact text to replace.' },
      new_string: { type: 'string', description: 'The text to put in its place; must differ from old_string.' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence instead of exactly one. Default false.' },
    },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  } as const;
  readonly sideEffects = { level: 'mutating', destructive: false, basis: 'declared' } as const;

  protected override pathsOf(args: EditArgs): readonly string[] {
    return [args.path];
  }

  protected async run({
    path: file,
    old_string: oldString,
    new_string: newString,
    replace_all: replaceAll = false,
  }: EditArgs): Promise<ToolResult> {
    if (oldString === newString) return errorResult('old_string and new_string are the same; nothing to edit');
    const absolute = this.resolve(file);
    const shown = this.display(absolute);
    let content: Buffer;
    try {
      content = await readFile(absolute);
    } catch (error) {
      return fileErrorResult(error, shown);
    }
    if (looksBinary(content)) return errorResult(`${shown} is a binary file, not text`);
    const parts = content.toString('utf8').split(oldString);
    const occurrences = parts.length - 1;
    if (occurrences === 0) return errorResult(`old_string was not found in ${shown}`);
    if (occurrences > 1 && !replaceAll) {
      return errorResult(`old_string occurs ${occurrences} times in ${shown}; add surrounding text to make it unique, or set replace_all`);
    }
    try {
      await writeFile(absolute, parts.join(newString), 'utf8');
    } catch (error) {
      return fileErrorResult(error, shown);
    }
    return textResult(`replaced ${occurrences} occurrence(s) in ${shown}`, { path: shown, replacements: occurrences });
  }
}
