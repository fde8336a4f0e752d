import { JsonDepthGauge } from './json-depth-gauge';

/** Feeds `text` to a gauge in pieces of `size` bytes; whether it stayed within `maxDepth`. */
function withinDepth(text: string, maxDepth: number, size: number): boolean {
  const bytes = Buffer.from(text);
  const gauge = new JsonDepthGauge(maxDepth);
  for (let at = 0; at < bytes.length; at += size) if (!gauge.feed(bytes.subarray(at, at + size))) return false;
  return true;
}

describe('JsonDepthGauge', () => {
  it.each([1, 2, 3, 7, 1_000])('measures the same depth whatever the pieces (%i bytes)', (size) => {
    expect(withinDepth('{"a":[[{"b":[]}]]}', 5, size)).toBe(true);
    expect(withinDepth('{"a":[[{"b":[]}]]}', 4, size)).toBe(false);
  });

  it.each([1, 2, 5])('ignores brackets in strings, escaped quotes and multi-byte characters included (%i-byte pieces)', (size) => {
    const text = JSON.stringify({ s: '[[[{{{\\"[[[ é 漢 "]]]', t: ['\\', '"[['] });
    expect(withinDepth(text, 2, size)).toBe(true);
    expect(withinDepth(text, 1, size)).toBe(false);
  });

  it.each([1, 2, 5])('measures decoded text as it does bytes (%i-character pieces)', (size) => {
    const text = JSON.stringify({ s: '[[[{{{\\"[[[ é 漢 😀 "]]]', t: [['\\', '"[[']] });
    const withinText = (maxDepth: number) => {
      const gauge = new JsonDepthGauge(maxDepth);
      for (let at = 0; at < text.length; at += size) if (!gauge.feedText(text.slice(at, at + size))) return false;
      return true;
    };
    expect(withinText(3)).toBe(true);
    expect(withinText(2)).toBe(false);
    expect(withinDepth(text, 3, size)).toBe(true);
    expect(withinDepth(text, 2, size)).toBe(false);
  });

  it('stops at the first level over the limit, however much follows', () => {
    expect(withinDepth(`${'['.repeat(300)}${']'.repeat(300)}`, 256, 64)).toBe(false);
    expect(withinDepth(`${'['.repeat(256)}${']'.repeat(256)}`, 256, 64)).toBe(true);
  });
});
