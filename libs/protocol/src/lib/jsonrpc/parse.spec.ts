import { JsonRpcErrorCode } from './error-codes';
import { internalError, invalidParams, methodNotFound } from './error-responses';
import { exceedsNodes, parseJsonRpcBatchOrMessage, parseJsonRpcMessage, type ParseResult } from './parse';

function errorOf(result: ParseResult) {
  if (result.ok) throw new Error(`expected an error, got a ${result.value.kind}`);
  return result.error;
}

function valueOf(result: ParseResult) {
  if (!result.ok) throw new Error(`expected a message, got ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('parseJsonRpcMessage', () => {
  describe('accepts', () => {
    it.each([
      ['a request with a string id', '{"jsonrpc":"2.0","id":"a-1","method":"tools/list"}', 'request'],
      ['a request with a numeric id and params', '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}', 'request'],
      ['a notification', '{"jsonrpc":"2.0","method":"notifications/initialized"}', 'notification'],
      ['a result response', '{"jsonrpc":"2.0","id":7,"result":{}}', 'response'],
      ['an error response with a null id', '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}', 'response'],
      ['an error response with data', '{"jsonrpc":"2.0","id":"q","error":{"code":-1,"message":"x","data":[1]}}', 'response'],
    ])('%s', (_, body, kind) => {
      const value = valueOf(parseJsonRpcMessage(body));
      expect(value.kind).toBe(kind);
      expect(value.message).toEqual(JSON.parse(body));
    });

    it('UTF-8 bytes, with or without a byte-order mark', () => {
      const json = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"note":"héllo ✓"}}';
      const bom = Buffer.from([0xef, 0xbb, 0xbf]);
      expect(valueOf(parseJsonRpcMessage(Buffer.from(json))).message).toEqual(JSON.parse(json));
      expect(valueOf(parseJsonRpcMessage(Buffer.concat([bom, Buffer.from(json)]))).kind).toBe('request');
      expect(valueOf(parseJsonRpcMessage(`\ufeff${json}`)).kind).toBe('request');
    });
  });

  describe('-32700 Parse error', () => {
    it.each([
      ['truncated JSON', '{"jsonrpc":"2.0","id":1,"method":"pi'],
      ['an empty body', ''],
      ['plain text', 'hello'],
      ['an HTML form post', 'a=1&b=2'],
      ['a trailing comma', '{"jsonrpc":"2.0","method":"x",}'],
    ])('for %s, with a null id', (_, body) => {
      const error = errorOf(parseJsonRpcMessage(body));
      expect(error).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON' } });
    });

    it('for bytes that are not UTF-8', () => {
      const error = errorOf(parseJsonRpcMessage(Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d])));
      expect(error.error).toEqual({ code: -32700, message: 'Parse error: the body is not valid UTF-8' });
    });

    it('never echoes the body back', () => {
      const error = errorOf(parseJsonRpcMessage('{"secret":"s3cr3t-value"'));
      expect(JSON.stringify(error)).not.toContain('s3cr3t');
    });
  });

  describe('-32600 Invalid Request', () => {
    it.each([
      ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', null, 'batches are not supported'],
      ['an empty batch', '[]', null, 'batches are not supported'],
      ['a bare number', '42', null, 'must be a JSON object'],
      ['null', 'null', null, 'must be a JSON object'],
      ['a missing jsonrpc member', '{"id":1,"method":"ping"}', 1, '"jsonrpc" must be exactly "2.0"'],
      ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":1,"method":"ping"}', 1, '"jsonrpc" must be exactly "2.0"'],
      ['jsonrpc as a number', '{"jsonrpc":2.0,"id":"x","method":"ping"}', 'x', '"jsonrpc" must be exactly "2.0"'],
      ['an empty method', '{"jsonrpc":"2.0","id":1,"method":""}', 1, '"method" must be a non-empty string'],
      ['a numeric method', '{"jsonrpc":"2.0","id":1,"method":5}', 1, '"method" must be a non-empty string'],
      ['a boolean id', '{"jsonrpc":"2.0","id":true,"method":"ping"}', null, '"id" must be a string or a safe integer'],
      ['an object id', '{"jsonrpc":"2.0","id":{},"method":"ping"}', null, '"id" must be a string or a safe integer'],
      ['an id too large to echo exactly', '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}', null, 'safe integer'],
      ['an id that overflows to Infinity', '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', null, 'safe integer'],
      ['a null request id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', null, '"id" must not be null'],
      ['string params', '{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}', 1, '"params" must be an object'],
      ['null params', '{"jsonrpc":"2.0","id":1,"method":"ping","params":null}', 1, '"params" must be an object'],
      ['array params on a notification', '{"jsonrpc":"2.0","method":"n","params":[1]}', null, '"params" must be an object'],
      ['an unknown member', '{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}', 1, 'unexpected member "extra"'],
      ['method and result together', '{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}', 1, 'unexpected member "result"'],
      ['neither method nor result', '{"jsonrpc":"2.0","id":1}', 1, 'exactly one of "result" and "error"'],
      ['result and error together', '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}', 1, 'exactly one of'],
      ['a result without id', '{"jsonrpc":"2.0","result":{}}', null, 'needs the id of its request'],
      ['a non-object result', '{"jsonrpc":"2.0","id":1,"result":[]}', 1, '"result" must be an object'],
      ['an error without id', '{"jsonrpc":"2.0","error":{"code":1,"message":"m"}}', null, 'needs "id"'],
      [
        'an error with a fractional code',
        '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}',
        1,
        '"error.code" must be an integer',
      ],
      ['an error without a message', '{"jsonrpc":"2.0","id":1,"error":{"code":1}}', 1, '"error.message" must be a string'],
      [
        'an error with an unknown member',
        '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","x":0}}',
        1,
        'unexpected member "error.x"',
      ],
      ['a __proto__ key', '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"polluted":1}}}', null, 'forbidden key'],
      [
        'a __proto__ key spelled with escapes',
        '{"jsonrpc":"2.0","id":1,"method":"x","params":{"\\u005f_pro\\u0074o__":{"p":1}}}',
        null,
        'forbidden key',
      ],
      [
        'a constructor.prototype key',
        '{"jsonrpc":"2.0","id":1,"method":"x","params":{"constructor":{"prototype":{"p":1}}}}',
        null,
        'forbidden key',
      ],
    ])('for %s', (_, body, id, detail) => {
      const error = errorOf(parseJsonRpcMessage(body));
      expect(error.id).toBe(id);
      expect(error.error.code).toBe(JsonRpcErrorCode.InvalidRequest);
      expect(error.error.message).toMatch(/^Invalid Request: /);
      expect(error.error.message).toContain(detail);
    });

    it('for nesting deeper than the limit, which JSON.stringify could not write back', () => {
      const nested = (depth: number) => `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      expect(parseJsonRpcMessage(nested(254)).ok).toBe(true); // 256 levels with the envelope and params
      expect(errorOf(parseJsonRpcMessage(nested(255))).error.message).toContain('nested deeper than 256 levels');
      expect(errorOf(parseJsonRpcMessage(nested(50_000))).error.code).toBe(-32600);
      expect(parseJsonRpcMessage(nested(300), { maxDepth: 400 }).ok).toBe(true);
    });

    it('for nesting one level over the limit in the shortest text that holds it (the walk is skipped only below that)', () => {
      for (let maxDepth = 1; maxDepth <= 10; maxDepth += 1) {
        const text = `${'['.repeat(maxDepth + 1)}${']'.repeat(maxDepth + 1)}`; // maxDepth + 1 levels in 2 * (maxDepth + 1) characters
        expect(errorOf(parseJsonRpcMessage(text, { maxDepth })).error.message).toContain(`nested deeper than ${maxDepth} levels`);
      }
    });

    it('cuts long caller-supplied member names short', () => {
      const name = 'k'.repeat(10_000);
      const error = errorOf(parseJsonRpcMessage(`{"jsonrpc":"2.0","id":1,"method":"m","${name}":1}`));
      expect(error.error.message.length).toBeLessThan(200);
    });

    it('leaves Object.prototype untouched by poisoned input', () => {
      parseJsonRpcMessage('{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"polluted":"yes"}}}');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('-32602 Invalid params', () => {
    it('for positional (array) params on a request, which MCP does not use', () => {
      const error = errorOf(parseJsonRpcMessage('{"jsonrpc":"2.0","id":"r","method":"tools/call","params":["x"]}'));
      expect(error).toEqual({
        jsonrpc: '2.0',
        id: 'r',
        error: { code: -32602, message: 'Invalid params: "params" must be an object' },
      });
    });

    it.each([
      ['a number out of range', '{"amount":1e309}', 'params.arguments.amount'],
      ['a negative one', '{"amount":-1E+400}', 'params.arguments.amount'],
      ['an integer past 2^53', '{"ids":[1,9007199254740993]}', 'params.arguments.ids[1]'],
      ['a number past 2^53 in exponent form', '{"n":{"big":1.5e20}}', 'params.arguments.n.big'],
    ])('for %s, which JSON.parse would change, naming the field', (_, args, field) => {
      const error = errorOf(
        parseJsonRpcMessage(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"pay","arguments":${args}}}`),
      );
      expect(error).toEqual({
        jsonrpc: '2.0',
        id: 4,
        error: {
          code: -32602,
          message: `Invalid params: ${field} is a number JSON cannot carry exactly (beyond ±2^53, or out of range); send it as a string`,
        },
      });
    });

    it('but not for such numerals inside strings, nor for numbers up to ±2^53', () => {
      const body =
        '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"pay","arguments":{"id":"12345678901234567890","e":"1e309","max":9007199254740991,"min":-9007199254740991,"x":1.5e10,"y":2.5e-300}}}';
      expect(valueOf(parseJsonRpcMessage(body)).message).toEqual(JSON.parse(body));
    });

    it('has a builder for handlers that find params wrong', () => {
      expect(invalidParams(3, '"name" is required')).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32602, message: 'Invalid params: "name" is required' },
      });
    });
  });

  describe('-32601 Method not found and -32603 Internal error shapes', () => {
    it('names the method, shortened', () => {
      expect(methodNotFound(1, 'tools/explode')).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32601, message: 'Method not found: tools/explode' },
      });
      expect(methodNotFound(1, 'x'.repeat(5000)).error.message.length).toBeLessThan(100);
    });

    it('says nothing of the cause', () => {
      expect(internalError('a')).toEqual({ jsonrpc: '2.0', id: 'a', error: { code: -32603, message: 'Internal error' } });
    });
  });
});

describe('parseJsonRpcBatchOrMessage (MCP 2025-03-26 batches)', () => {
  it('parses each member of a batch as it would be parsed alone, an invalid one as its error', () => {
    const parsed = parseJsonRpcBatchOrMessage(
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"id":2},[]]',
    );
    expect(parsed).toEqual({
      ok: true,
      batch: [
        { ok: true, value: { kind: 'request', message: { jsonrpc: '2.0', id: 1, method: 'ping' } } },
        { ok: true, value: { kind: 'notification', message: { jsonrpc: '2.0', method: 'notifications/initialized' } } },
        { ok: false, error: expect.objectContaining({ id: 2, error: expect.objectContaining({ code: JsonRpcErrorCode.InvalidRequest }) }) },
        {
          ok: false,
          error: expect.objectContaining({ id: null, error: expect.objectContaining({ code: JsonRpcErrorCode.InvalidRequest }) }),
        },
      ],
    });
  });

  it('answers an empty batch with one -32600, a single message as parseJsonRpcMessage does', () => {
    expect(parseJsonRpcBatchOrMessage('[]')).toMatchObject({
      ok: false,
      error: { id: null, error: { code: JsonRpcErrorCode.InvalidRequest } },
    });
    expect(parseJsonRpcBatchOrMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual(
      parseJsonRpcMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}'),
    );
    expect(parseJsonRpcBatchOrMessage('[{')).toMatchObject({ ok: false, error: { error: { code: JsonRpcErrorCode.ParseError } } });
  });

  it('applies the depth limit to the whole batch', () => {
    const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(parseJsonRpcBatchOrMessage(`[${deep(4)}]`, { maxDepth: 4 })).toMatchObject({
      ok: false,
      error: { error: { message: expect.stringContaining('deeper than 4') } },
    });
  });
});

describe('exceedsNodes', () => {
  it('counts every JSON value of the roots, each root included and object keys not, an absent root as none', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }; // 7 values
    expect(exceedsNodes([schema, undefined], 7)).toBe(false);
    expect(exceedsNodes([schema, undefined], 6)).toBe(true);
    expect(exceedsNodes([schema, { type: 'object' }], 8)).toBe(true);
    expect(exceedsNodes([null, false, 0, ''], 4)).toBe(false);
  });

  it('stops as soon as it has counted past the limit', () => {
    const huge = Array.from({ length: 1_000_000 }, () => ({ value: 1 }));
    const started = process.hrtime.bigint();
    expect(exceedsNodes([huge], 10)).toBe(true);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(100);
  });
});
