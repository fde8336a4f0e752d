import { type SeededRandom as Random, seededRandom } from '@toolmesh/test-peers/seeded-random';

import { parseJsonRpcMessage, type ParseResult } from './parse';

/**
 * Property: for any input, the parser returns (never throws) either a well-formed message or a standard
 * JSON-RPC error response. Inputs are random and mutated messages from a seeded generator, so a failure
 * names the seed and case that reproduce it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed);
const CASES = Number(process.env.FUZZ_CASES ?? 12_000);
const STANDARD_PARSER_CODES = new Set([-32700, -32600, -32602]);

const VALID: readonly unknown[] = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  },
  { jsonrpc: '2.0', id: 'abc', method: 'tools/call', params: { name: 'search', arguments: { q: 'x', n: 3 } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 9, result: { tools: [{ name: 't', inputSchema: { type: 'object' } }] } },
  { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
];
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'jsonrpc',
  'id',
  'method',
  'params',
  'result',
  'error',
];
const NASTY_NUMBERS = ['1e400', '-1e400', '12345678901234567890', '9007199254740993', '-0', '0.1e-400', '1.5', '4.2e1'];
const NASTY_FRAGMENTS = [
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  ':',
  ',',
  'null',
  'true',
  '\u0000',
  '\ud800',
  '\uffff',
  '"__proto__":{"x":1}',
  '"constructor":{"prototype":{}}',
];

function randomValue(r: Random, depth: number): unknown {
  const choice = depth > 4 ? r.int(5) : r.int(8);
  switch (choice) {
    case 0:
      return null;
    case 1:
      return r.next() < 0.5;
    case 2:
      return r.pick([0, -1, 1.5, Number.MAX_SAFE_INTEGER, 2 ** 60, -(2 ** 31)]);
    case 3:
      return r.pick(['', 'x', '2.0', 'ping', '\u2028', '😀'.repeat(r.int(4))]);
    case 4:
      return r.pick(NASTY_KEYS);
    case 5:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = r.int(5); i > 0; i--) object[r.pick(NASTY_KEYS)] = randomValue(r, depth + 1);
      return object;
    }
  }
}

function deepNesting(r: Random): string {
  const depth = 1 + r.int(20_000);
  const [open, close] = r.pick([
    ['[', ']'],
    ['{"a":', '}'],
  ]);
  const body = `${open.repeat(depth)}1${close.repeat(r.next() < 0.8 ? depth : r.int(depth))}`;
  return `{"jsonrpc":"2.0","id":1,"method":"m","params":{"deep":${body}}}`;
}

function mutate(r: Random, text: string): string {
  switch (r.int(7)) {
    case 0:
      return text.slice(0, r.int(text.length)); // truncated JSON
    case 1: {
      // a random fragment spliced in
      const at = r.int(text.length + 1);
      return text.slice(0, at) + r.pick(NASTY_FRAGMENTS) + text.slice(at);
    }
    case 2:
      return text.replace(/-?\d+(\.\d+)?/, r.pick(NASTY_NUMBERS)); // huge or odd numbers
    case 3:
      return text.replace(/"(jsonrpc|id|method|params|result|error)":/, `"${r.pick(NASTY_KEYS)}":`); // renamed member
    case 4: {
      // a member replaced by a value of the wrong type (while the text is still JSON)
      const value = jsonObjectOrUndefined(text);
      if (value === undefined) return text.slice(1);
      value[r.pick(NASTY_KEYS)] = randomValue(r, 0);
      return JSON.stringify(value);
    }
    case 5:
      return text.replace('{', `{"__proto__":${JSON.stringify(randomValue(r, 3))},`); // prototype pollution
    default: {
      // one character deleted
      const at = r.int(text.length);
      return text.slice(0, at) + text.slice(at + 1);
    }
  }
}

function jsonObjectOrUndefined(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function generate(r: Random): string | Uint8Array {
  switch (r.int(6)) {
    case 0:
      return JSON.stringify(randomValue(r, 0)) ?? 'undefined';
    case 1:
      return deepNesting(r);
    case 2:
      return Uint8Array.from({ length: r.int(64) }, () => r.int(256)); // random bytes, mostly not UTF-8
    default: {
      let text = JSON.stringify(r.pick(VALID));
      for (let n = r.int(4); n > 0; n--) text = mutate(r, text); // sometimes none: valid input must pass too
      return text;
    }
  }
}

function assertWellFormed(result: ParseResult): void {
  if (result.ok) {
    const { kind, message } = result.value;
    expect(message.jsonrpc).toBe('2.0');
    if (kind === 'request') expect('id' in message && typeof message.method === 'string').toBe(true);
    if (kind === 'notification') expect('id' in message).toBe(false);
    if (kind === 'response') expect('result' in message !== 'error' in message).toBe(true);
    // A message that parsed once parses again to the same kind: nothing half-valid slips through.
    const again = parseJsonRpcMessage(JSON.stringify(message));
    expect(again.ok && again.value.kind).toBe(kind);
  } else {
    const { error } = result;
    expect(error.jsonrpc).toBe('2.0');
    expect(STANDARD_PARSER_CODES.has(error.error.code)).toBe(true);
    expect(typeof error.error.message).toBe('string');
    expect(error.id === null || typeof error.id === 'string' || Number.isFinite(error.id)).toBe(true);
    expect(() => JSON.stringify(error)).not.toThrow();
  }
}

describe(`parser fuzz (seed ${SEED}, ${CASES} cases)`, () => {
  it('never throws and always answers with a message or a standard error', () => {
    const r = seededRandom(SEED);
    const outcomes = { ok: 0, error: 0 };
    for (let i = 0; i < CASES; i++) {
      const input = generate(r);
      let result: ParseResult;
      try {
        result = parseJsonRpcMessage(input);
      } catch (error) {
        throw new Error(`case ${i} (seed ${SEED}) threw for ${String(input).slice(0, 200)}`, { cause: error });
      }
      assertWellFormed(result);
      outcomes[result.ok ? 'ok' : 'error'] += 1;
    }
    // Both paths were exercised; a generator that only ever produced garbage would prove little.
    expect(outcomes.ok).toBeGreaterThan(CASES * 0.05);
    expect(outcomes.error).toBeGreaterThan(CASES * 0.3);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
