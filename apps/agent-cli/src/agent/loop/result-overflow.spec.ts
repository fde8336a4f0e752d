import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ResultOverflow } from './result-overflow';
import { modelToolResult } from './tool-result-message';

const text = (value: string) => ({
  isError: false,
  content: [{ type: 'text' as const, text: value }],
});

function session(): { dir: string; overflow: ResultOverflow } {
  const dir = mkdtempSync(path.join(tmpdir(), 'result-overflow-'));
  return {
    dir,
    overflow: new ResultOverflow(dir, path.join(dir, '.agent-cli/tool-results/s1')),
  };
}

describe('results over llm.maxToolResultChars', () => {
  it('saves a long text whole and gives the model its start and its end with the path, within the limit', () => {
    const { dir, overflow } = session();
    const long = `START ${'a'.repeat(5_000)}${'z'.repeat(5_000)} END`;
    const model = modelToolResult(text(long), {
      maxChars: 1_000,
      audio: false,
      overflow,
    });
    expect(model.overflow).toEqual({
      saved: true,
      shown: '.agent-cli/tool-results/s1/result-1.txt',
      resultChars: long.length,
    });
    expect(readFileSync(path.join(dir, '.agent-cli/tool-results/s1/result-1.txt'), 'utf8')).toBe(long);
    expect(statSync(path.join(dir, '.agent-cli/tool-results/s1/result-1.txt')).mode & 0o777).toBe(0o600);
    expect(model.text).toMatch(
      /^\[This result has 10010 characters, over llm\.maxToolResultChars \(1000\), so it was saved whole to \.agent-cli\/tool-results\/s1\/result-1\.txt: .*its start and its end\.\]\nSTART a+\n\[\.\.\. \d+ characters not shown \.\.\.\]\nz+ END$/,
    );
    expect(model.text.length).toBeLessThanOrEqual(1_000 + 60); // the gap's marker is the only excess
  });

  it('summarises a JSON result by its structure, writes it pretty-printed, and numbers files without overwriting', () => {
    const { dir, overflow } = session();
    const value = {
      items: Array.from({ length: 500 }, (_, i) => ({
        id: i,
        tags: ['x'],
        body: 'b'.repeat(100),
      })),
      next: null,
      ok: true,
    };
    const first = modelToolResult(text(JSON.stringify(value)), {
      maxChars: 2_000,
      audio: false,
      overflow,
    });
    expect(first.text.split('\n').slice(1)).toEqual([
      'object with 3 key(s)',
      '  "items": array of 500 item(s), the first:',
      '    [0]: object with 3 key(s)',
      '      "id": number 0',
      '      "tags": array of 1 item(s), the first:',
      '        [0]: string "x"',
      `      "body": string of 100 characters, starting ${JSON.stringify('b'.repeat(60))}`,
      '  "next": null',
      '  "ok": boolean true',
    ]);
    expect(readFileSync(path.join(dir, '.agent-cli/tool-results/s1/result-1.json'), 'utf8')).toBe(`${JSON.stringify(value, null, 2)}\n`);
    const second = modelToolResult({ isError: false, content: [], structuredContent: value }, { maxChars: 2_000, audio: false, overflow });
    expect(second.overflow).toMatchObject({
      saved: true,
      shown: '.agent-cli/tool-results/s1/result-2.json',
    });
  });

  it('cuts with a note saying why when the folder cannot be written, and leaves results within the limit alone', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'result-overflow-'));
    writeFileSync(path.join(dir, 'blocked'), 'a file where the folder would be');
    const overflow = new ResultOverflow(dir, path.join(dir, 'blocked', 's1'));
    const model = modelToolResult(text('y'.repeat(50)), {
      maxChars: 10,
      audio: false,
      overflow,
    });
    expect(model.text).toBe(
      `${'y'.repeat(10)}\n[cut: 40 of 50 characters not shown; llm.maxToolResultChars is 10]\n[the whole result could not be saved for Read: ENOTDIR]`,
    );
    expect(model.overflow).toEqual({
      saved: false,
      reason: 'ENOTDIR',
      resultChars: 50,
    });
    expect(modelToolResult(text('short'), { maxChars: 10, audio: false, overflow })).toEqual({ text: 'short', attachments: [] });
  });
});
