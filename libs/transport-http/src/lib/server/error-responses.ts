import type { ServerResponse } from 'node:http';
import { serializeErrorResponse, type JsonRpcErrorResponse } from '@toolmesh/protocol';

/** The one way the HTTP front writes a JSON-RPC error: always JSON, whatever the status. */
export function sendJsonRpcError(res: ServerResponse, status: number, error: JsonRpcErrorResponse): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(serializeErrorResponse(error));
}

/**
 * A missing or unsupported `MCP-Protocol-Version` is an HTTP-level refusal (SPEC G5): status 400 and a
 * body that tells the caller what to send.
 */
export function sendVersionError(
  res: ServerResponse,
  error: string,
  message: string,
  supportedVersions: readonly string[],
  guid: string,
): void {
  res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error, message, supportedVersions, guid }));
}
