/**
 * Everything Streamable HTTP: the gateway's Express front and the agent's client transport. The only
 * library allowed to import express. Built in issues #3 (server side) and #5 (client side).
 */
export * from './lib/client/http-client-errors';
export * from './lib/client/streamable-http-client-transport';
