import { invalidParams } from './error-responses';
import { parseJsonRpcMessage } from './parse';
import { RawJson, serializeErrorResponse, serializeResultResponse } from './serialize';

describe('response serialization', () => {
  it('inlines pre-serialized results verbatim and the output parses back as a response', () => {
    const raw = new RawJson('{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}');
    const text = serializeResultResponse('req-1', raw);
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 'req-1', result: JSON.parse(raw.json) });
    expect(parseJsonRpcMessage(text)).toMatchObject({ ok: true, value: { kind: 'response' } });
  });

  it('serializes plain results and escapes ids', () => {
    expect(JSON.parse(serializeResultResponse('a"b', { ok: true }))).toEqual({ jsonrpc: '2.0', id: 'a"b', result: { ok: true } });
  });

  it('serializes error responses', () => {
    expect(JSON.parse(serializeErrorResponse(invalidParams(4, 'x')))).toEqual(invalidParams(4, 'x'));
  });
});
