/**
 * The `_meta` key with which a toolmesh gateway marks a tool whose annotations are an MCP server's claims
 * passed on (a tool of an `mcpServer` bundle, issue 28) rather than its manifest's, which the platform
 * team vouches for. A client that believes the gateway's read-only claims reads it to believe only those
 * (the agent CLI's `annotationTrust: read-only`); docs/gateway.md, "MCP servers as a tool source".
 */
export const ANNOTATIONS_CLAIM_META_KEY = 'io.toolmesh/annotations';

/** The marker's value: whose claims the annotations are, and the gateway's bundle that listed the tool. */
export interface AnnotationsClaim {
  readonly claimedBy: 'mcp-server';
  readonly bundle: string;
}
