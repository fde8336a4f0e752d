import { connect } from 'node:net';

/** What came back on a raw connection: nothing at all, or one HTTP response as the server framed it. */
export type RawExchange =
  { kind: 'closed' } | { kind: 'response'; status: number; headers: Record<string, string>; body: Buffer } | { kind: 'hang' };

/**
 * Writes `request` (any bytes, well-formed HTTP or not) on a fresh TCP connection, half-closes it, and
 * reads until the server closes: for requests no HTTP client would send (bad framing, control
 * characters, thousands of headers). `hang` when nothing ended within `timeoutMillis`.
 */
export function rawExchange(url: string, request: Buffer | string, timeoutMillis = 15_000): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ kind: 'hang' });
    }, timeoutMillis);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset is an answer too: the 'close' below reports it
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks)));
    });
    socket.end(request);
  });
}

function parseResponse(bytes: Buffer): RawExchange {
  if (bytes.length === 0) return { kind: 'closed' };
  // An interim answer (100 Continue) precedes the real one.
  if (/^HTTP\/1\.[01] 1\d\d /.test(bytes.subarray(0, 16).toString('latin1'))) {
    const interimEnd = bytes.indexOf('\r\n\r\n');
    if (interimEnd !== -1) return parseResponse(bytes.subarray(interimEnd + 4));
  }
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes
    .subarray(0, end === -1 ? bytes.length : end)
    .toString('latin1')
    .split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const raw = end === -1 ? Buffer.alloc(0) : bytes.subarray(end + 4);
  return { kind: 'response', status, headers, body: headers['transfer-encoding'] === 'chunked' ? dechunk(raw) : raw };
}

function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
