import type { ServerResponse } from 'node:http';

import { type JsonRpcErrorResponse, serializeErrorResponse } from '@toolmesh/protocol';

/** The one way the HTTP front writes a JSON-RPC error: always JSON, whatever the status. */
export function sendJsonRpcError(res: ServerResponse, status: number, error: JsonRpcErrorResponse): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(serializeErrorResponse(error));
}
