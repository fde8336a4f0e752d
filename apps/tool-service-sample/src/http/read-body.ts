import type { IncomingMessage } from 'node:http';

/** Bodies above this are refused with 413; tool arguments are small JSON objects. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Reads a request body up to MAX_BODY_BYTES. Never rejects: an oversize or interrupted body is a result,
 * not an exception, so a bad client can never crash the service.
 */
export function readBody(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (declared > MAX_BODY_BYTES) {
      discardRest(req);
      resolve({ ok: false, reason: 'too_large' });
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) {
        req.off('data', onData);
        discardRest(req);
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.once('error', () => resolve({ ok: false, reason: 'aborted' }));
  });
}

/**
 * Keeps consuming (and dropping) the rest of a refused body: a client still sending would otherwise see
 * its connection reset instead of reading the 413.
 */
function discardRest(req: IncomingMessage): void {
  req.on('error', () => undefined);
  req.resume();
}
