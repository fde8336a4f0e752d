/**
 * `@toolmesh/transport-http/server`: the gateway's side of Streamable HTTP (issue #3) — the Express app
 * that serves MCP, the HTTP listener, the per-request context and the winston logger. The only library
 * code allowed to import express. Clients import `@toolmesh/transport-http/client`, which loads none of this.
 */
export { createLogger, type LogFormat, type Logger } from './lib/logging/logger';
export { type AuthenticatedCaller, type Authentication, type AuthenticationRefusal, type Authenticator } from './lib/server/authenticator';
export { CallerHeader } from './lib/server/correlation-headers';
export { createMcpHttpApp, type McpEndpointApp } from './lib/server/mcp-http-app';
export { type DispatchOutcome, type JsonOutcome, type McpDispatcher, type McpGetHandler } from './lib/server/dispatch-outcome';
export { type EventStream } from './lib/server/event-stream';
export { listenHttp } from './lib/server/http-server';
export { type HangUpSignal } from './lib/server/hang-up';
export { remainingMillis, type RequestContext } from './lib/server/request-context';
