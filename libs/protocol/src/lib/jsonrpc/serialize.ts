import type { JsonRpcErrorResponse, RequestId } from './messages';

/**
 * A JSON value serialized ahead of time, inlined verbatim into a response. The gateway keeps its
 * `tools/list` result this way per catalogue generation. It is also kept encoded as UTF-8 once: on
 * Node 20, encoding a 250 KB string for every response cost more than everything else in serving it
 * (docs/adr/0005-gateway-hot-path.md, "Third round").
 */
export class RawJson {
  readonly bytes: Buffer;

  /**
   * `meta`: the result's own `_meta`, kept out of `json` so that `json` stays the value's content (what a
   * catalogue compares) and an era adding its own `_meta` merges the two instead of writing the key twice.
   */
  constructor(
    readonly json: string,
    readonly meta?: Readonly<Record<string, unknown>>,
  ) {
    this.bytes = Buffer.from(json, 'utf8');
  }
}

/**
 * A JSON-RPC response ready for the wire: one string, or chunks of UTF-8 written in order, which is how a
 * pre-serialized result goes out without being copied or re-encoded.
 */
export type SerializedResponse = string | readonly Buffer[];

const CLOSING_BRACE = Buffer.from('}');

/**
 * `members` are added to the result object: how the 2026 era adds `resultType`, cache hints and `_meta` to
 * a pre-serialized result without copying it (a RawJson result must then be a non-empty JSON object).
 */
export function serializeResultResponse(id: RequestId, result: object | RawJson, members?: object): SerializedResponse {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  if (!(result instanceof RawJson)) return `${head}${JSON.stringify(members ? withMembers(result, members) : result)}}`;
  if (result.meta !== undefined) members = withOwnMeta(result.meta, members);
  if (!members) return [Buffer.from(head), result.bytes, CLOSING_BRACE];
  // The object's own closing brace gives way to the added members: `{"tools":[...]` + `,"resultType":...}`.
  const withoutBrace = result.bytes.subarray(0, result.bytes.lastIndexOf(CLOSING_BRACE[0]));
  return [Buffer.from(head), withoutBrace, Buffer.from(`,${JSON.stringify(members).slice(1)}`), CLOSING_BRACE];
}

/** The members with the result's own `_meta` merged under any `_meta` they add (theirs win a shared key). */
function withOwnMeta(meta: Readonly<Record<string, unknown>>, members: object | undefined): object {
  const added = (members as { _meta?: object } | undefined)?._meta;
  return { ...members, _meta: added === undefined ? meta : { ...meta, ...added } };
}

export function serializeErrorResponse(response: JsonRpcErrorResponse): string {
  return JSON.stringify(response);
}

/** Bytes on the wire, for Content-Length. */
export function serializedByteLength(response: SerializedResponse): number {
  if (typeof response === 'string') return Buffer.byteLength(response);
  let length = 0;
  for (const chunk of response) length += chunk.length;
  return length;
}

/** The response as one string (payload logging, tests). */
export function serializedText(response: SerializedResponse): string {
  return typeof response === 'string' ? response : Buffer.concat(response).toString('utf8');
}

/**
 * `result` with `members` added (theirs win), as a spread would make it. Built with `Object.assign`, not a
 * spread: a spread of each call's result into a new literal promoted about 220 bytes per 2026-07-28 call
 * to V8's old generation (tools/bench/gateway-gc; docs/adr/0005-gateway-hot-path.md, twelfth round). A
 * result with an own `__proto__` member (parsed from JSON) keeps the spread, which defines it rather than
 * setting the prototype.
 */
function withMembers(result: object, members: object): object {
  return Object.hasOwn(result, '__proto__') ? { ...result, ...members } : Object.assign({}, result, members);
}
