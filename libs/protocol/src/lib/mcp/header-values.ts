import { McpMethod } from './methods';

/**
 * The methods whose `Mcp-Name` header repeats a body field, and that field (2026-07-28, Streamable HTTP
 * "Standard MCP request headers"): the client sets it from the body, the server checks it against it.
 */
export const MCP_NAME_SOURCE: ReadonlyMap<string, 'name' | 'uri' | 'taskId'> = new Map([
  [McpMethod.ToolsCall, 'name'],
  [McpMethod.PromptsGet, 'name'],
  [McpMethod.ResourcesRead, 'uri'],
  // The Tasks extension (SEP-2663, "Routing Headers"): a task's methods name it, so a balancer can route them.
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';
const BASE64_SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a plain (not Base64) header value may hold. */
const PLAIN = /^[\x20-\x7e\t]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An `Mcp-Name` or `Mcp-Param-*` value by the 2026-07-28 value-encoding rule: as it is when it is plain
 * visible ASCII without leading or trailing whitespace, else `=?base64?<Base64 of its UTF-8>?=` (also
 * when it is empty or already looks like that form, so that it cannot be misread), as the SDK does.
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    value !== '' && PLAIN.test(value) && value === value.trim() && !(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX));
  return plain ? value : `${BASE64_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${BASE64_SUFFIX}`;
}

export type DecodedHeader = { ok: true; value: string } | { ok: false; problem: string };

/** The value a client encoded: plain values as they are, the Base64 form decoded as UTF-8; anything else is invalid. */
export function decodeHeaderValue(raw: string): DecodedHeader {
  const sentinel = BASE64_SENTINEL.exec(raw);
  if (!sentinel)
    return PLAIN.test(raw)
      ? { ok: true, value: raw }
      : { ok: false, problem: 'has characters outside visible ASCII; send them Base64-encoded' };
  const encoded = sentinel[1];
  if (!BASE64.test(encoded)) return { ok: false, problem: 'is not valid Base64' };
  try {
    return { ok: true, value: utf8.decode(Buffer.from(encoded, 'base64')) };
  } catch {
    return { ok: false, problem: 'is Base64 of something that is not UTF-8' };
  }
}
