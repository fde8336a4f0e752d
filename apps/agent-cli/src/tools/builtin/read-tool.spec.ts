import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { resultText } from '../tool';
import { READ_MAX_OUTPUT_BYTES, ReadTool } from './read-tool';

const dir = mkdtempSync(path.join(tmpdir(), 'read-tool-'));
const read = new ReadTool({ workingDirectory: dir });

beforeAll(() => {
  writeFileSync(path.join(dir, 'five.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  writeFileSync(path.join(dir, 'empty.txt'), '');
  writeFileSync(path.join(dir, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  writeFileSync(path.join(dir, 'one-long-line.txt'), 'y'.repeat(300 * 1024));
  writeFileSync(path.join(dir, 'big.txt'), `${'x'.repeat(1023)}\n`.repeat(300)); // 300 KiB of 1 KiB lines
  mkdirSync(path.join(dir, 'folder'));
});

describe('Read', () => {
  it('returns a whole text file, relative to the working directory or absolute', async () => {
    const relative = await read.execute({ path: 'five.txt' });
    const absolute = await read.execute({ path: path.join(dir, 'five.txt') });
    expect(relative.isError).toBe(false);
    expect(resultText(relative)).toBe('one\ntwo\nthree\nfour\nfive');
    expect(absolute).toEqual(relative);
    expect(relative.structuredContent).toEqual({ path: 'five.txt', firstLine: 1, lastLine: 5, totalLines: 5 });
  });

  it('returns a range of lines with offset and limit, and says where to continue', async () => {
    const result = await read.execute({ path: 'five.txt', offset: 2, limit: 2 });
    expect(resultText(result)).toBe('two\nthree\n[lines 2-3 of 5; continue with offset 4]');
    expect(resultText(await read.execute({ path: 'five.txt', offset: 4 }))).toBe('four\nfive');
  });

  it('returns an empty file as empty text', async () => {
    const result = await read.execute({ path: 'empty.txt' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe('');
  });

  it(`bounds its output to ${READ_MAX_OUTPUT_BYTES / 1024} KiB of whole lines`, async () => {
    const result = await read.execute({ path: 'big.txt' });
    const text = resultText(result);
    expect(result.isError).toBe(false);
    expect(Buffer.byteLength(text)).toBeLessThan(READ_MAX_OUTPUT_BYTES + 100);
    // 256 lines of 1023 characters and their 255 separators are 262143 bytes: one byte under the bound.
    expect(text.slice(text.lastIndexOf('\n') + 1)).toBe('[lines 1-256 of 300; continue with offset 257]');
    expect(
      text
        .split('\n')
        .slice(0, -1)
        .every((line) => line.length === 1023),
    ).toBe(true);
  });

  it('cuts a single line longer than the bound, and says so', async () => {
    const text = resultText(await read.execute({ path: 'one-long-line.txt' }));
    expect(text.startsWith('y'.repeat(READ_MAX_OUTPUT_BYTES))).toBe(true);
    expect(text.slice(READ_MAX_OUTPUT_BYTES)).toBe(`\n[line 1 is longer than ${READ_MAX_OUTPUT_BYTES / 1024} KiB and was cut]`);
  });

  it.each([
    [{ path: 'missing.txt' }, 'missing.txt: no such file or directory'],
    [{ path: 'folder' }, 'folder is a directory, not a file'],
    [{ path: 'image.bin' }, 'image.bin is a binary file, not text'],
    [{ path: 'five.txt', offset: 6 }, 'five.txt has 5 line(s); offset 6 is past its end'],
    [{}, 'invalid arguments for Read: arguments.path is required'],
    [{ path: 'five.txt', offset: 0 }, 'invalid arguments for Read: arguments.offset must be >= 1'],
    [{ path: 'five.txt', lines: 3 }, 'invalid arguments for Read: arguments.lines is not allowed'],
  ])('returns an error result for %j', async (args, message) => {
    const result = await read.execute(args);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(message);
  });
});
