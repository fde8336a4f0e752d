import type { JSONRPCMessage, RequestId } from '../jsonrpc/messages';

/** The JSON-RPC error code of a reply the transport dropped for its size or depth: "internal error", with `data.reason`. */
const OVERSIZED_REPLY_CODE = -32603;

/** Bytes of the start and the end of a dropped message that transports keep to find its id. */
export const OVERSIZED_EDGE_BYTES = 256;

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
// A response's top-level id sits first (after "jsonrpc") or last (the SDK writes {result, jsonrpc, id}); any
// other "id" in the text is inside a string (quotes escaped) or a nested object, never at these places.
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

/**
 * The id of a response too large to parse, read from its first and last bytes, or undefined when neither
 * shows one where a response's top-level id can be (then the request it answers waits for its timeout).
 */
export function oversizedReplyId(head: string, tail: string): RequestId | undefined {
  const found = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  if (!found) return undefined;
  return found[1].startsWith('"') ? (JSON.parse(found[1]) as string) : Number(found[1]);
}

/**
 * What a transport hands its client in place of a reply it dropped for its size, so the request fails at
 * once with the reason instead of waiting for its timeout (a re-sent copy would be dropped again).
 */
export function oversizedReply(id: RequestId, bytes: number, limit: number, code: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: OVERSIZED_REPLY_CODE,
      message: `the server's reply of ${bytes} bytes is over this client's limit of ${limit} bytes; it was dropped [${code}]`,
      data: { reason: code, bytes, limit },
    },
  } as JSONRPCMessage;
}

/**
 * What a transport hands its client in place of a reply it dropped, unparsed, for nesting deeper than
 * `maxDepth` (parsing it would hold the event loop for as long as the server liked), so the request fails
 * at once with the reason.
 */
export function tooDeepReply(id: RequestId, maxDepth: number, code: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: OVERSIZED_REPLY_CODE,
      message: `the server's reply is nested deeper than this client's limit of ${maxDepth} levels; it was dropped unparsed [${code}]`,
      data: { reason: code, limit: maxDepth },
    },
  } as JSONRPCMessage;
}
