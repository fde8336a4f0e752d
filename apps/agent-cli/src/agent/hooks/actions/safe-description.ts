/**
 * A failure of a hook action as something safe to log: the error's kind and code (`SdkError
 * (REQUEST_TIMEOUT)`, `SocketError (UND_ERR_SOCKET)`, `McpClientError (client.not_connected)`), never its
 * message, which may quote what a server answered or the arguments it was sent.
 */
export function safeDescription(error: unknown): string {
  if (!(error instanceof Error)) return 'an unknown failure';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? `${error.name} (${code})` : error.name;
}
