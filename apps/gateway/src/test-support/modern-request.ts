/** The stateless revision raw requests speak, as the SDK clients pinned to it do. */
export const MODERN_VERSION = '2026-07-28';

/** What a raw request adds to the `_meta` every 2026-07-28 request carries, and to its headers. */
export interface ModernRequestOptions {
  /** The client's capabilities (`io.modelcontextprotocol/clientCapabilities`); none by default. */
  readonly capabilities?: Record<string, unknown>;
  /** More of the request's `_meta` (a `clientInfo`). */
  readonly meta?: Record<string, unknown>;
  /** More headers (`authorization`). */
  readonly headers?: Record<string, string>;
  readonly id?: string | number;
}

/**
 * One raw 2026-07-28 request, for what the SDK clients do not send or do not show (a refusal's status, an
 * input round's state brought to another request, a notification stream opened by hand): its JSON-RPC
 * message, `params` with the `_meta` every request carries, and the headers the revision asks for
 * (`Mcp-Method`, and `Mcp-Name` for the tool, prompt, resource or task `params` names).
 */
export function modernMessage(
  method: string,
  params: Record<string, unknown> = {},
  options: ModernRequestOptions = {},
): { body: Record<string, unknown>; headers: Record<string, string> } {
  const named = params.name ?? params.uri ?? params.taskId;
  return {
    body: {
      jsonrpc: '2.0',
      id: options.id ?? 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
          ...options.meta,
        },
      },
    },
    headers: {
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...(typeof named === 'string' && { 'mcp-name': named }),
      ...options.headers,
    },
  };
}

/** `modernMessage` as a fetch's POST. */
export function modernInit(method: string, params?: Record<string, unknown>, options?: ModernRequestOptions): RequestInit {
  const { body, headers } = modernMessage(method, params, options);
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  };
}

/** `modernInit`'s request POSTed to `url`. */
export const modernRequest = (url: string, method: string, params?: Record<string, unknown>, options?: ModernRequestOptions) =>
  fetch(url, modernInit(method, params, options));
