import { CodedError } from '@toolmesh/protocol';
/**
 * Local errors of the MCP client: failures that never cross the wire. Stable string codes, listed in
 * docs/errors.md ("mcp-client"); a test keeps the two in agreement.
 */
export const McpClientErrorCode = {
  /** A request was made before `connect()` finished or after the connection ended. */
  NotConnected: 'client.not_connected',
  /** The transport could not be opened or the initialize handshake failed. */
  ConnectFailed: 'client.connect_failed',
  /** The initialize handshake did not finish within the request timeout. */
  ConnectTimeout: 'client.connect_timeout',
  /** The connection ended while a request was running; the request may have run and is not repeated. */
  ConnectionLost: 'client.connection_lost',
  /**
   * The server ended the connection while the `server/discover` probe was unanswered: a legacy server
   * that exits on any request before `initialize`. Connect again with the legacy verdict.
   */
  ProbeClosed: 'client.probe_closed',
  /**
   * A 2026-07-28 server failed a call because its handler asked the client (elicitation, sampling, roots)
   * with a request of its own, which that revision removed (legacy-asks.ts). The session connects again
   * with 2025-11-25 and runs the call once more (`McpSession.run`); thrown on only when that is not possible.
   */
  ServerRequestsNeedLegacy: 'client.server_requests_need_legacy',
  /** Reported, not thrown: a 2026-07-28 server listed a tool whose `x-mcp-header` annotations break the rules; it was left out. */
  ToolDropped: 'client.tool_dropped',
  /** Reported, not thrown: the `subscriptions/listen` stream for a 2026-07-28 server's changes could not be opened; it is tried again. */
  ListenFailed: 'client.listen_failed',
  /** A server's reply to a task request (tools/call as a task, tasks/get, tasks/result, tasks/cancel, tasks/list) breaks the Tasks specification. */
  TaskReplyInvalid: 'client.task_reply_invalid',
  /** A task request the server does not offer: no task capability, or a method its era lacks (2026-07-28 has no tasks/list). */
  TasksUnsupported: 'client.tasks_unsupported',
  /** A 2025-11-25 server answered a tool call `-32042` (open a URL first) again after the user had opened its URL: not retried a second time. */
  UrlElicitationRepeated: 'client.url_elicitation_repeated',
} as const;

export type McpClientErrorCode = (typeof McpClientErrorCode)[keyof typeof McpClientErrorCode];

export class McpClientError extends CodedError<McpClientErrorCode> {
  override readonly name = 'McpClientError';
}
