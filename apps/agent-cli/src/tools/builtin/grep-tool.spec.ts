import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { resultText } from '../tool';
import { GREP_MAX_MATCHES, GrepTool } from './grep-tool';

const dir = mkdtempSync(path.join(tmpdir(), 'grep-tool-'));
const grep = new GrepTool({ workingDirectory: dir });

beforeAll(() => {
  mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
  writeFileSync(path.join(dir, 'src/a.ts'), 'export function alpha() {}\nconst x = 1;\r\nexport class Beta {}\n');
  writeFileSync(path.join(dir, 'src/lib/b.ts'), 'import { alpha } from "../a";\nexport function gamma() {}\n');
  writeFileSync(path.join(dir, 'src/notes.md'), 'exported functions are prose here\n');
  writeFileSync(path.join(dir, 'src/blob.bin'), Buffer.from('export function\0binary'));
});

describe('Grep', () => {
  it('returns path:line:text for every matching line, in path order', async () => {
    writeFileSync(path.join(dir, 'src/lib.ts'), 'export class Lib {}\n'); // after src/lib/ in path order
    const result = await grep.execute({ pattern: 'export (class|function) \\w+', path: 'src' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(
      [
        'src/a.ts:1:export function alpha() {}',
        'src/a.ts:3:export class Beta {}',
        'src/lib/b.ts:2:export function gamma() {}',
        'src/lib.ts:1:export class Lib {}',
        '[1 binary, unreadable or too large file(s) skipped]',
      ].join('\n'),
    );
  });

  it('filters files by glob (by name when the glob has no "/"), ignores case on request, and searches one file', async () => {
    expect(resultText(await grep.execute({ pattern: 'export', glob: '*.md' }))).toBe('src/notes.md:1:exported functions are prose here');
    expect(resultText(await grep.execute({ pattern: 'alpha', glob: 'src/lib/**' }))).toBe('src/lib/b.ts:1:import { alpha } from "../a";');
    expect(resultText(await grep.execute({ pattern: 'BETA', ignore_case: true, path: 'src/a.ts' }))).toBe(
      'src/a.ts:3:export class Beta {}',
    );
    expect(resultText(await grep.execute({ pattern: '1;$', path: 'src/a.ts' }))).toBe('src/a.ts:2:const x = 1;'); // CRLF
  });

  it('says so when nothing matches', async () => {
    const result = await grep.execute({ pattern: 'delta', glob: '*.ts' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe('no lines match delta');
  });

  it(`stops after ${GREP_MAX_MATCHES} matching lines`, async () => {
    writeFileSync(path.join(dir, 'many.txt'), 'hit\n'.repeat(GREP_MAX_MATCHES + 10));
    const lines = resultText(await grep.execute({ pattern: '^hit$', path: 'many.txt' })).split('\n');
    expect(lines).toHaveLength(GREP_MAX_MATCHES + 1);
    expect(lines[GREP_MAX_MATCHES - 1]).toBe(`many.txt:${GREP_MAX_MATCHES}:hit`);
    expect(lines[GREP_MAX_MATCHES]).toBe(`[stopped after ${GREP_MAX_MATCHES} matching lines; narrow the pattern, path or glob]`);
  });

  it('runs a catastrophic-backtracking pattern over a long line in linear time', async () => {
    // On V8's engine this line takes minutes; the test's bound is what fails a backtracking engine.
    writeFileSync(path.join(dir, 'hostile.txt'), `${'a'.repeat(40)}!\n${'a'.repeat(10)}\n`);
    expect(resultText(await grep.execute({ pattern: '^(a+)+$', path: 'hostile.txt' }))).toBe(`hostile.txt:2:${'a'.repeat(10)}`);
  }, 10_000);

  it.each([
    [{ pattern: '(unclosed' }, 'invalid regular expression'],
    [{ pattern: '(a)\\1' }, 'invalid regular expression: pattern "(a)\\1" cannot run in linear time'],
    [{ pattern: 'x', path: 'missing' }, 'missing: no such file or directory'],
    [{ pattern: 'x', ignore_case: 'yes' }, 'arguments.ignore_case must be boolean'],
    [{ pattern: 'x', context: 2 }, 'arguments.context is not allowed'],
  ])('returns an error result for %j', async (args, message) => {
    const result = await grep.execute(args);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(message);
  });
});
