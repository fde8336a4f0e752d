import type {
  JSONRPCErrorResponse as SdkJsonRpcErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
} from '@modelcontextprotocol/client';

/**
 * JSON-RPC 2.0 envelopes, as the MCP SDK types them. We re-export rather than retype so that messages
 * produced by our parser and transports flow into the SDK client unchanged.
 */
export type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResultResponse, RequestId };

/**
 * An error response as it goes on the wire. JSON-RPC 2.0 §5 requires `"id": null` when the request's id
 * could not be determined (parse errors, unreadable envelopes); the SDK's type leaves `id` optional instead.
 */
export type JsonRpcErrorResponse = Omit<SdkJsonRpcErrorResponse, 'id'> & { id: RequestId | null };

/** A response as a peer's message delivers it (the SDK's type): a result, or an error for a request of ours. */
export type InboundResponse = Exclude<JSONRPCMessage, JSONRPCRequest | JSONRPCNotification>;

/** Any response a peer may send: a result or an error. */
export type JsonRpcResponse = JSONRPCResultResponse | JsonRpcErrorResponse;

/** What the parser accepts, tagged by kind so callers switch instead of sniffing fields. */
export type ParsedMessage =
  | { kind: 'request'; message: JSONRPCRequest }
  | { kind: 'notification'; message: JSONRPCNotification }
  | { kind: 'response'; message: JsonRpcResponse };

export const JSONRPC_VERSION = '2.0';
