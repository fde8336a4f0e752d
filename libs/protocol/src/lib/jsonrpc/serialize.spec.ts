import { invalidParams } from './error-responses';
import { parseJsonRpcMessage } from './parse';
import { RawJson, serializedByteLength, serializedText, serializeErrorResponse, serializeResultResponse } from './serialize';

describe('response serialization', () => {
  it('inlines pre-serialized results verbatim and the output parses back as a response', () => {
    const raw = new RawJson('{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}');
    const response = serializeResultResponse('req-1', raw);
    expect(typeof response).not.toBe('string'); // pre-encoded bytes, not a string to encode per response
    const text = serializedText(response);
    expect(serializedByteLength(response)).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 'req-1', result: JSON.parse(raw.json) });
    expect(parseJsonRpcMessage(text)).toMatchObject({ ok: true, value: { kind: 'response' } });
  });

  it('counts the bytes of a pre-serialized result with non-ASCII text as UTF-8', () => {
    const response = serializeResultResponse(7, new RawJson('{"tools":[{"name":"a","description":"Zürich → 東京"}]}'));
    expect(serializedByteLength(response)).toBe(Buffer.byteLength(serializedText(response)));
    expect(JSON.parse(serializedText(response)).result.tools[0].description).toBe('Zürich → 東京');
  });

  it('adds members to a pre-serialized result without re-serializing it, and to a plain one', () => {
    const raw = new RawJson('{"tools":[{"name":"a","description":"ends with }"}]}  ');
    const members = { resultType: 'complete', ttlMs: 5, _meta: { x: '}' } };
    const response = serializeResultResponse(3, raw, members);
    expect(serializedByteLength(response)).toBe(Buffer.byteLength(serializedText(response)));
    expect(JSON.parse(serializedText(response)).result).toEqual({ ...JSON.parse(raw.json), ...members });
    expect(JSON.parse(serializedText(serializeResultResponse(3, { content: [] }, members))).result).toEqual({ content: [], ...members });
  });

  it("writes a pre-serialized result's own _meta once, merged with the members' _meta", () => {
    const raw = new RawJson('{"tools":[]}', { 'io.toolmesh/etag': 'e1', shared: 'own' });
    expect(JSON.parse(serializedText(serializeResultResponse(5, raw))).result).toEqual({
      tools: [],
      _meta: { 'io.toolmesh/etag': 'e1', shared: 'own' },
    });
    const text = serializedText(serializeResultResponse(5, raw, { resultType: 'complete', _meta: { shared: 'era', who: 'gw' } }));
    expect(text.match(/"_meta"/g)).toHaveLength(1);
    expect(JSON.parse(text).result).toEqual({
      tools: [],
      resultType: 'complete',
      _meta: { 'io.toolmesh/etag': 'e1', shared: 'era', who: 'gw' },
    });
  });

  it("lets the members win over the result's own, and keeps a result's own __proto__ member as a member", () => {
    const result = JSON.parse('{"content":[],"resultType":"other","__proto__":{"polluted":true}}') as object;
    const text = serializedText(serializeResultResponse(4, result, { resultType: 'complete' }));
    expect(JSON.parse(text).result).toEqual(JSON.parse('{"content":[],"resultType":"complete","__proto__":{"polluted":true}}'));
    expect(text).toContain('"__proto__":{"polluted":true}');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('serializes plain results and escapes ids', () => {
    expect(JSON.parse(serializedText(serializeResultResponse('a"b', { ok: true })))).toEqual({
      jsonrpc: '2.0',
      id: 'a"b',
      result: { ok: true },
    });
  });

  it('serializes error responses', () => {
    expect(JSON.parse(serializeErrorResponse(invalidParams(4, 'x')))).toEqual(invalidParams(4, 'x'));
  });
});
