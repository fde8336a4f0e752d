export * from './lib/logging/logger';
export * from './lib/server/request-context';
export * from './lib/server/correlation-headers';
export * from './lib/server/origin-guard';
export * from './lib/server/protocol-version-guard';
export * from './lib/server/mcp-http-app';
export * from './lib/server/http-server';
