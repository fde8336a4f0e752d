/** `=?base64?<base64 of UTF-8>?=`: how a client sends a header value that plain ASCII cannot carry. */
const BASE64_SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a plain (not Base64) value may contain. */
const PLAIN = /^[\x20-\x7e\t]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export type DecodedHeader = { ok: true; value: string } | { ok: false; problem: string };

/**
 * Decodes an `Mcp-Name` or `Mcp-Param-*` value (2026-07-28 §Streamable HTTP, value encoding): plain
 * values as they are, the Base64 sentinel decoded as UTF-8. Anything else is invalid.
 */
export function decodeHeaderValue(raw: string): DecodedHeader {
  const sentinel = BASE64_SENTINEL.exec(raw);
  if (!sentinel) return PLAIN.test(raw) ? { ok: true, value: raw } : { ok: false, problem: 'has characters outside visible ASCII; send them Base64-encoded' };
  const encoded = sentinel[1];
  if (!BASE64.test(encoded)) return { ok: false, problem: 'is not valid Base64' };
  try {
    return { ok: true, value: utf8.decode(Buffer.from(encoded, 'base64')) };
  } catch {
    return { ok: false, problem: 'is Base64 of something that is not UTF-8' };
  }
}
