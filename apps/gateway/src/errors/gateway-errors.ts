import { CodedError } from '@toolmesh/protocol';
/**
 * Local errors of the gateway itself (the catalogue's are the registry's). Stable string codes, listed in
 * docs/errors.md ("gateway"); a test keeps the two in agreement. None of them is a JSON-RPC error to an MCP
 * client: on a bad configuration the gateway refuses to start and prints the message, which names the
 * setting to fix; an MCP server's failure (issue 28) reaches the caller as the text of an `isError` result.
 */
export const GatewayErrorCode = {
  /** The configuration file cannot be read or is invalid, or an environment variable is. */
  ConfigInvalid: 'gateway.config_invalid',
  /** The audit trail is on but its file cannot be appended to (or its disk is full), or its subject key cannot be read or is short: the gateway does not start. */
  AuditUnavailable: 'gateway.audit_unavailable',
  /** An MCP server bundle's server is not called while its circuit breaker is open (its last connections failed). */
  UpstreamUnavailable: 'gateway.upstream_unavailable',
  /** A request to an MCP server failed other than by its answer or a timeout (no connection, a lost one, no token); its cause's code in brackets. */
  UpstreamFailed: 'gateway.upstream_failed',
  /** An MCP server did not answer a request (its handshake included) within the deadline. */
  UpstreamTimeout: 'gateway.upstream_timeout',
  /** No access token for an MCP server bundle's `mcpServer.oauth` (the token endpoint refused or could not be reached). */
  UpstreamTokenFailed: 'gateway.upstream_token_failed',
  /** A bundle's `tokenExchange` got no token for its tool service (RFC 8693; the exchange was refused or could not be made). */
  TokenExchangeFailed: 'gateway.token_exchange_failed',
  /** A call whose server asked a 2026 caller for input was cancelled, not held: `mcp.heldCalls` were reached. */
  HeldCallsFull: 'gateway.held_calls_full',
  /** A long tool's 202 Accepted had no usable Location (none, not a URL, another origin): the call's `isError` result names it (issue 47). */
  TaskAcceptInvalid: 'gateway.task_accept_invalid',
  /** A job's status URL answered neither 202 nor the job's reply (gone, a redirect, input asked), or nothing `mcp.tasks.maxFailedPolls` times: the task failed. */
  TaskStatusInvalid: 'gateway.task_status_invalid',
  /** A task could not be recorded (its store, Redis, failed or did not answer): the caller's `isError` result says to call again. */
  TaskStoreUnavailable: 'gateway.task_store_unavailable',
  /** A call that asked for a task was refused before its service was called: its caller has `mcp.tasks.maxWorkingPerCaller` tasks still working (its `isError` result says so). */
  TasksPerCallerFull: 'gateway.tasks_per_caller_full',
  /** A `tools/call` refused by an `enforce` interceptor (issue 46): the caller's `isError` result names it and its reason. */
  InterceptorDenied: 'gateway.interceptor_denied',
  /** A `tools/call` refused because an interceptor failed (timeout, unreachable, malformed answer) and does not fail open. */
  InterceptorFailed: 'gateway.interceptor_failed',
  /** The pin file of `mcp.definitionPins.pinFile` cannot be read or is not a map of bundles to tools to `sha256:` hashes: the gateway does not start. */
  PinFileInvalid: 'gateway.pin_file_invalid',
  /** A tool of a `warn` or `hold` bundle whose definition is not approved (changed, or new to a pinned bundle): logged and audited, never with its text. */
  DefinitionChanged: 'gateway.definition_changed',
  /** A `warn` or `hold` bundle's approvals could not be read from (or written to) Redis: its refresh fails and it keeps its tools as they were. */
  ApprovalsUnavailable: 'gateway.approvals_unavailable',
  /** `consent.vaultKey` holds no key, a key shorter than 32 characters, or one key twice: the gateway does not start (issue 48). */
  VaultKeyInvalid: 'gateway.vault_key_invalid',
  /** The vault of users' tokens could not read or write Redis: a call that acts as the user fails saying so, nothing is forgotten (issue 48). */
  UserTokensUnavailable: 'gateway.user_tokens_unavailable',
  /** The outside authorization server refused to refresh a user's token (invalid_grant): the vault forgets it and the user is asked for consent again (issue 48). */
  UserTokenRefreshRefused: 'gateway.user_token_refresh_refused',
  /** A call of a bundle with `userAuthorization` got neither its user's token nor a consent link (no verified caller, or the vault failed): its `isError` result says why; its service is not called (issue 48). */
  UserAuthorizationFailed: 'gateway.user_authorization_failed',
  /** A consent page refused the person: the link expired, was altered or made for another user, the flow was started in another browser, or a server or the person refused (issue 48). */
  ConsentRefused: 'gateway.consent_refused',
  /** A consent page could not finish: an authorization server could not be reached, had no usable metadata, or would not exchange the code (issue 48). */
  ConsentFailed: 'gateway.consent_failed',
} as const;

export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

export class GatewayError extends CodedError<GatewayErrorCode> {
  override readonly name = 'GatewayError';
}
