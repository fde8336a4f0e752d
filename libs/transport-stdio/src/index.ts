/**
 * Child-process MCP transport (SPEC "Layers and boundaries"): spawn with a minimal environment,
 * newline-delimited JSON-RPC, request correlation, inbound notifications, clean process shutdown.
 * Built in issue #5.
 */
export {};
