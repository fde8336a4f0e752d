import { mapToolReply } from './result-mapper';

const reply = (status: number, body: string, contentType = 'application/json') => ({ kind: 'reply' as const, status, contentType, body });
const textOf = (result: ReturnType<typeof mapToolReply>) => result.content[0].text;

describe('mapToolReply (SPEC G13)', () => {
  it('passes text data through and serializes objects and arrays compactly', () => {
    expect(mapToolReply('t', reply(200, '{"data":"plain \\"text\\""}'), 12)).toEqual({
      content: [{ type: 'text', text: 'plain "text"', _meta: { searchTime: 12 } }],
      isError: false,
    });
    expect(textOf(mapToolReply('t', reply(200, '{"data": {"a": [1, 2], "b": null}, "meta": {"x": 1}}'), 1))).toBe('{"a":[1,2],"b":null}');
    expect(textOf(mapToolReply('t', reply(201, '{"data":[{"id":"a1"}]}'), 1))).toBe('[{"id":"a1"}]');
  });

  it.each([
    ['HTTP 500 with a reason', reply(500, '{"error":"database down"}'), 'Tool t failed: the tool service answered HTTP 500: database down'],
    ['HTTP 404 without a reason', reply(404, 'Not Found', 'text/plain'), 'Tool t failed: the tool service answered HTTP 404.'],
    ['a reply that is not JSON', reply(200, '<html>oops</html>', 'text/html'), "Tool t failed: the tool service's reply is not JSON."],
    ['a reply without data', reply(200, '{"result":1}'), 'has no "data" member'],
    ['a timeout', { kind: 'failure' as const, reason: 'timeout' as const, detail: 'no complete reply within 1000 ms' }, 'Tool t failed: no complete reply within 1000 ms.'],
  ])('maps %s to an isError result', (_, toolReply, text) => {
    const result = mapToolReply('t', toolReply, 5);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(text);
    expect(result.content[0]._meta.searchTime).toBe(5);
  });
});
