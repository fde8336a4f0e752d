import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { resultText } from '../tool';
import { EditTool } from './edit-tool';

const dir = mkdtempSync(path.join(tmpdir(), 'edit-tool-'));
const edit = new EditTool({ workingDirectory: dir });
const file = path.join(dir, 'code.ts');
const ORIGINAL = 'const a = 1;\nconst b = 1;\nconst c = 2;\n';

beforeEach(() => writeFileSync(file, ORIGINAL));

describe('Edit', () => {
  it('replaces a unique string', async () => {
    const result = await edit.execute({ path: 'code.ts', old_string: 'c = 2', new_string: 'c = $& + 3' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe('replaced 1 occurrence(s) in code.ts');
    expect(readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 1;\nconst c = $& + 3;\n');
  });

  it('refuses a string that occurs more than once, and leaves the file alone', async () => {
    const result = await edit.execute({ path: 'code.ts', old_string: '= 1', new_string: '= 9' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('old_string occurs 2 times in code.ts; add surrounding text to make it unique, or set replace_all');
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });

  it('replaces every occurrence with replace_all', async () => {
    const result = await edit.execute({ path: 'code.ts', old_string: '= 1', new_string: '= 9', replace_all: true });
    expect(resultText(result)).toBe('replaced 2 occurrence(s) in code.ts');
    expect(readFileSync(file, 'utf8')).toBe('const a = 9;\nconst b = 9;\nconst c = 2;\n');
  });

  it.each([
    [{ path: 'code.ts', old_string: 'const d', new_string: 'x' }, 'old_string was not found in code.ts'],
    [{ path: 'code.ts', old_string: 'c = 2', new_string: 'c = 2' }, 'old_string and new_string are the same'],
    [{ path: 'nope.ts', old_string: 'a', new_string: 'b' }, 'nope.ts: no such file or directory'],
    [{ path: 'code.ts', old_string: '', new_string: 'b' }, 'arguments.old_string must NOT have fewer than 1 characters'],
    [{ path: 'code.ts', old_string: 'a', new_string: 'b', replace_all: 'yes' }, 'arguments.replace_all must be boolean'],
  ])('returns an error result for %j and leaves the file alone', async (args, message) => {
    const result = await edit.execute(args);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(message);
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });
});
