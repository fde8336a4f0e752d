import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

import { invalidRequest, serializeErrorResponse } from '@toolmesh/protocol';

/** Node's HTTP parser and connection checks name their failures by code; each maps to a status and a reason. */
const REFUSALS: Record<string, { status: number; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'the request headers are too large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, detail: 'the chunk extensions are too large' },
  // headersTimeout and requestTimeout both end here (Node's periodic connection check).
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'the request was not received in time' },
};
const MALFORMED = { status: 400, detail: 'the request is not valid HTTP/1.1' };

/**
 * Answers a connection-level failure that Node raises before (or while) a request reaches the handler
 * (its `clientError` event: a malformed request line, oversized headers, bad chunking, a header or body
 * read timeout) with a JSON-RPC error body and the matching status, then closes the connection: after a
 * framing error the rest of the byte stream cannot be trusted.
 *
 * The socket is closed with no answer when HTTP allows nothing else:
 * - the peer is gone (ECONNRESET, or the socket no longer writable);
 * - a response on this connection is already partly written (a request pipelined behind it was
 *   malformed): a second status line would corrupt that response.
 */
export function replyToClientError(error: NodeJS.ErrnoException, socket: Duplex, responseInProgress: boolean): void {
  if (error.code === 'ECONNRESET' || !socket.writable || responseInProgress) {
    socket.destroy();
    return;
  }
  const { status, detail } = REFUSALS[error.code ?? ''] ?? MALFORMED;
  const body = serializeErrorResponse(invalidRequest(null, detail));
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n';
  // Destroyed once the answer is flushed: half-closing would leave an abusive peer's stream open.
  socket.end(head + body, () => socket.destroy());
}
