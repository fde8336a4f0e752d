/**
 * Everything Streamable HTTP: the gateway's Express front and the agent's client transport. The only
 * library allowed to import express. Built in issues #3 (server side) and #5 (client side).
 */
export * from './lib/logging/logger';
export * from './lib/server/request-context';
export * from './lib/server/correlation-headers';
export * from './lib/server/origin-guard';
export * from './lib/server/protocol-version-guard';
export * from './lib/server/mcp-http-app';
export * from './lib/server/http-server';
export * from './lib/client/http-client-errors';
export * from './lib/client/streamable-http-client-transport';
