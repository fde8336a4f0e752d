import type { GatewayCallToolResult } from '../call/tool-call-outcome';
import type { ToolHttpResponse } from '../tool-client/tool-client';
import { mapToolReply } from './result-mapper';

const reply = (status: number, body: string) => ({ kind: 'reply' as const, status, body });
/** The mapping when it is a result (not a request for input). */
function resultOf(toolReply: ToolHttpResponse, durationMs: number): GatewayCallToolResult {
  const mapped = mapToolReply('t', toolReply, durationMs);
  if ('inputRequired' in mapped) throw new Error('expected a result, got a request for input');
  return mapped;
}
const textOf = (result: GatewayCallToolResult) => result.content[0].text;

describe('mapToolReply (SPEC G13)', () => {
  it('passes text data through and serializes objects and arrays compactly', () => {
    expect(resultOf(reply(200, '{"data":"plain \\"text\\""}'), 12)).toEqual({
      content: [{ type: 'text', text: 'plain "text"', _meta: { searchTime: 12 } }],
      isError: false,
    });
    expect(textOf(resultOf(reply(200, '{"data": {"a": [1, 2], "b": null}, "meta": {"x": 1}}'), 1))).toBe('{"a":[1,2],"b":null}');
    expect(textOf(resultOf(reply(201, '{"data":[{"id":"a1"}]}'), 1))).toBe('[{"id":"a1"}]');
  });

  it.each([
    ['HTTP 500 with a reason', reply(500, '{"error":"database down"}'), 'Tool t failed: the tool service answered HTTP 500: database down'],
    ['HTTP 404 without a reason', reply(404, 'Not Found'), 'Tool t failed: the tool service answered HTTP 404.'],
    ['a reply that is not JSON', reply(200, '<html>oops</html>'), "Tool t failed: the tool service's reply is not JSON."],
    ['a reply without data', reply(200, '{"result":1}'), 'has no "data" member'],
    [
      'a request for input in a form that cannot be relayed',
      reply(200, '{"inputRequired":{"inputRequests":{"x":{"method":"tools/call"}}}}'),
      'asked for input in a form the gateway cannot relay',
    ],
    ['a request for input with nothing in it', reply(200, '{"inputRequired":{}}'), 'has neither inputRequests nor requestState'],
    [
      'a timeout',
      { kind: 'failure' as const, reason: 'timeout' as const, detail: 'no complete reply within 1000 ms' },
      'Tool t failed: no complete reply within 1000 ms.',
    ],
  ])('maps %s to an isError result', (_, toolReply, text) => {
    const result = resultOf(toolReply, 5);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(text);
    expect(result.content[0]._meta.searchTime).toBe(5);
  });

  it('hands a request for input back as such', () => {
    const body = '{"inputRequired":{"inputRequests":{"q":{"method":"elicitation/create","params":{"message":"?"}}},"requestState":"s1"}}';
    expect(mapToolReply('t', reply(200, body), 1)).toEqual({
      inputRequired: { inputRequests: { q: { method: 'elicitation/create', params: { message: '?' } } }, requestState: 's1' },
    });
  });
});
