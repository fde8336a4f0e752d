/**
 * `@toolmesh/transport-http/client`: the agent's side of Streamable HTTP (issue #5), the MCP client
 * transport over undici, and the SSE parser it shares with the agent's LLM completion reader. It imports
 * nothing of the server side, so a client pays neither for express nor for winston (client-entry.spec.ts
 * checks the module graph, the agent CLI's main.spec.ts its bundle).
 */
export { SseParser, type SseParseEvent } from './lib/client/sse-parser';
export { type AuthorizationChallenge, type HttpAuthorization } from './lib/client/http-authorization';
export { isConnectionClosed, isSessionExpired } from './lib/client/http-client-errors';
export { legacySseClientTransport } from './lib/client/legacy-sse-client-transport';
export { StreamableHttpClientTransport } from './lib/client/streamable-http-client-transport';
