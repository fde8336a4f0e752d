// Test support for the catalogue's tests and the gateway's: real redis-server processes and scriptable
// HTTP document servers. Imported by specs only, as `@toolmesh/registry/testing`.
export * from './testing/redis-server';
export * from './testing/document-server';
