import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The checks of an operator's request on the management port that changes something (an approval of a
 * pinned definition, a revocation of a user's tokens). The port's probes need no credentials; these do:
 * `Authorization: Bearer` with `mcp.definitionPins.approvalToken`'s value, the one operator token. A
 * browser's request (it carries Origin) is refused first, so a page cannot ride on a reachable port.
 * Answers true when the request may go on; otherwise it has sent the 403 or 401 itself (the body left unread).
 */
export function operatorAuthorized(req: IncomingMessage, res: ServerResponse, expected: string | undefined, action: string): boolean {
  const refuse = (status: number, body: { error: string; message: string }) => {
    req.resume();
    if (status === 401) res.setHeader('www-authenticate', 'Bearer');
    sendJson(res, status, body);
    return false;
  };
  if (req.headers.origin !== undefined)
    return refuse(403, { error: 'forbidden', message: 'the management port does not answer browser requests (Origin present)' });
  if (expected === undefined)
    return refuse(403, {
      error: 'approval_off',
      message: `${action} on the management port needs a token: set mcp.definitionPins.approvalToken ({ env } or { file })`,
    });
  if (!bearerMatches(req.headers.authorization, expected))
    return refuse(401, { error: 'unauthorized', message: `${action} needs Authorization: Bearer with mcp.definitionPins.approvalToken` });
  return true;
}

/** A small JSON body read to its end (so the answer is not cut by a destroyed request); undefined when longer than `maxBytes` or not JSON. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  if (size > maxBytes) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Compared as digests, in constant time: the token's length and content are not told by the time taken. */
function bearerMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  if (match === null) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(expected));
}
