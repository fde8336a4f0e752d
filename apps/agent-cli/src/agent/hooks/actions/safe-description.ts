/**
 * A failure of a hook action as something safe to log: the error's kind and code (`SdkError
 * (REQUEST_TIMEOUT)`, `SocketError (UND_ERR_SOCKET)`, `McpClientError (client.not_connected)`), never its
 * message, which may quote what a server answered or the arguments it was sent.
 */
export function safeDescription(error: unknown): string {
  // Duck-typed: errors from another realm (a library's own context) are not `instanceof Error` here.
  const { name, code } = (typeof error === 'object' && error !== null ? error : {}) as { name?: unknown; code?: unknown };
  const kind = typeof name === 'string' && name.length > 0 ? name : 'an unknown failure';
  return typeof code === 'string' || typeof code === 'number' ? `${kind} (${code})` : kind;
}
