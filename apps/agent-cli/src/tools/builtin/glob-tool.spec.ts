import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { resultText } from '../tool';
import { GLOB_MAX_RESULTS, GlobTool } from './glob-tool';

const dir = mkdtempSync(path.join(tmpdir(), 'glob-tool-'));
const glob = new GlobTool({ workingDirectory: dir });

function files(...names: string[]): void {
  for (const name of names) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), name);
  }
}

beforeAll(() => files('src/b.ts', 'src/a.ts', 'src/deep/er/c.ts', 'src/readme.md', 'top.ts', '.hidden/x.ts', 'src/.dot.ts'));

describe('Glob', () => {
  it('lists matching files in path order, relative to the working directory', async () => {
    const result = await glob.execute({ pattern: '**/*.ts' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe('src/a.ts\nsrc/b.ts\nsrc/deep/er/c.ts\ntop.ts');
    expect(result.structuredContent).toEqual({ files: ['src/a.ts', 'src/b.ts', 'src/deep/er/c.ts', 'top.ts'], total: 4 });
  });

  it('matches relative to the given folder, and dot files only when the pattern spells the dot', async () => {
    expect(resultText(await glob.execute({ pattern: '*.ts', path: 'src' }))).toBe('src/a.ts\nsrc/b.ts');
    expect(resultText(await glob.execute({ pattern: '.*.ts', path: path.join(dir, 'src') }))).toBe('src/.dot.ts');
    expect(resultText(await glob.execute({ pattern: '{top,src/*}.{ts,md}' }))).toBe('src/a.ts\nsrc/b.ts\nsrc/readme.md\ntop.ts');
  });

  it('says so when nothing matches', async () => {
    const result = await glob.execute({ pattern: '**/*.rs' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe('no files under . match **/*.rs');
  });

  it(`lists at most ${GLOB_MAX_RESULTS} files and says how many matched`, async () => {
    mkdirSync(path.join(dir, 'many'));
    for (let i = 0; i < GLOB_MAX_RESULTS + 5; i++) writeFileSync(path.join(dir, 'many', `f${String(i).padStart(4, '0')}.txt`), '');
    const result = await glob.execute({ pattern: 'many/*.txt' });
    const lines = resultText(result).split('\n');
    expect(lines).toHaveLength(GLOB_MAX_RESULTS + 1);
    expect(lines[0]).toBe('many/f0000.txt');
    expect(lines[GLOB_MAX_RESULTS]).toBe(`[${GLOB_MAX_RESULTS} of ${GLOB_MAX_RESULTS + 5} matching files listed; narrow the pattern]`);
  });

  it.each([
    [{ pattern: '*', path: 'nowhere' }, 'nowhere: no such file or directory'],
    [{ pattern: '*', path: 'top.ts' }, 'top.ts is not a folder'],
    [{}, 'arguments.pattern is required'],
    [{ pattern: '*', cwd: '/' }, 'arguments.cwd is not allowed'],
  ])('returns an error result for %j', async (args, message) => {
    const result = await glob.execute(args);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(message);
  });
});
