import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Reads a request body once, never holding more than `maxBytes`. A declared Content-Length over the limit
 * is refused before a byte is read.
 */
export function readBoundedBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ ok: false, reason: 'too_large' });

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        finish({ ok: false, reason: 'too_large' });
        req.resume(); // drain the rest without keeping it, so the 413 can still be written
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    // `on`, not `once`: `finish` settles once anyway, and `once` wraps every listener anew on every request.
    req.on('end', () => finish({ ok: true, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) }));
    // A client that goes away mid-body makes the request emit 'error' (ECONNRESET, after the deprecated
    // 'aborted'): one listener covers it, and every listener is added anew on every request.
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
  });
}
