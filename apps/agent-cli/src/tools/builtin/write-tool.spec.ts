import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { resultText } from '../tool';
import { WriteTool } from './write-tool';

const dir = mkdtempSync(path.join(tmpdir(), 'write-tool-'));
const write = new WriteTool({ workingDirectory: dir });

describe('Write', () => {
  it('creates a file and its missing parent folders', async () => {
    const result = await write.execute({ path: 'a/b/c.txt', content: 'héllo\n' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe('wrote 7 byte(s) to a/b/c.txt');
    expect(readFileSync(path.join(dir, 'a/b/c.txt'), 'utf8')).toBe('héllo\n');
  });

  it('overwrites an existing file', async () => {
    writeFileSync(path.join(dir, 'old.txt'), 'old content that is longer');
    await write.execute({ path: path.join(dir, 'old.txt'), content: 'new' });
    expect(readFileSync(path.join(dir, 'old.txt'), 'utf8')).toBe('new');
  });

  it('returns error results for a folder, a file in the way of a folder, and bad arguments', async () => {
    mkdirSync(path.join(dir, 'folder'));
    writeFileSync(path.join(dir, 'plain'), '');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ path: 'folder', content: 'x' }, 'folder is a directory, not a file'],
      [{ path: 'plain/inner.txt', content: 'x' }, 'plain/inner.txt'],
      [{ path: 'x.txt' }, 'arguments.content is required'],
      [{ path: 'x.txt', content: 1 }, 'arguments.content must be string'],
      [{ path: 'x.txt', content: '', mode: 'append' }, 'arguments.mode is not allowed'],
    ];
    for (const [args, message] of cases) {
      const result = await write.execute(args);
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(message);
    }
    expect(readFileSync(path.join(dir, 'plain'), 'utf8')).toBe('');
  });
});
