import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { printableName } from '@toolmesh/protocol';
import type { LiveCatalogue } from '@toolmesh/registry';

import type { PinnedDefinitions } from './pinned-definitions';

const APPROVE_PATH = /^\/actuator\/toolBundles\/([^/]+)\/tools\/([^/]+)\/approve$/;
/** `{"hash":"sha256:<64 hex>"}` and some room: an approval names one hash. */
const MAX_BODY_BYTES = 1024;
/** A refresh asked for moments after another waits its turn (`mcp.catalogue.requestedRefreshIntervalMillis`): this many turns at most. */
const REFRESH_ATTEMPTS = 3;

export interface ApprovalEndpointOptions {
  readonly definitions: PinnedDefinitions;
  /** The bearer token an approval must carry (`mcp.definitionPins.approvalToken`); undefined: approvals on the port are off. */
  readonly token: () => string | undefined;
  readonly catalogue: Pick<LiveCatalogue, 'requestRefresh'>;
}

/**
 * `POST /actuator/toolBundles/{bundle}/tools/{tool}/approve` with `{"hash": "sha256:..."}` on the management
 * port: an operator approves a tool's current definition, named by the hash they reviewed (a definition
 * that changed since is not approved: 409 with the current hash). The probes on that port need no token,
 * an approval does: `Authorization: Bearer` with `mcp.definitionPins.approvalToken`'s value (401 without,
 * 403 when none is configured). The bundle is then refreshed, so the approved definition is served (and
 * `list_changed` sent) before the answer. Answers true when the path was its own.
 */
export function approvalEndpoint(options: ApprovalEndpointOptions): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  return (req, res, path) => {
    const match = APPROVE_PATH.exec(path);
    if (match === null) return false;
    void approve(req, res, match[1], match[2], options).catch(() =>
      sendJson(res, 500, { error: 'approval_failed', message: 'the approval could not be recorded' }),
    );
    return true;
  };
}

async function approve(
  req: IncomingMessage,
  res: ServerResponse,
  rawBundle: string,
  rawTool: string,
  options: ApprovalEndpointOptions,
): Promise<void> {
  if (req.method !== 'POST') {
    req.resume();
    res.setHeader('allow', 'POST');
    return sendJson(res, 405, { error: 'method_not_allowed', message: 'an approval is a POST' });
  }
  if (req.headers.origin !== undefined) {
    req.resume();
    return sendJson(res, 403, { error: 'forbidden', message: 'the management port does not answer browser requests (Origin present)' });
  }
  const expected = options.token();
  if (expected === undefined) {
    req.resume();
    return sendJson(res, 403, {
      error: 'approval_off',
      message: 'approving definitions on the management port needs a token: set mcp.definitionPins.approvalToken ({ env } or { file })',
    });
  }
  if (!bearerMatches(req.headers.authorization, expected)) {
    req.resume();
    res.setHeader('www-authenticate', 'Bearer');
    return sendJson(res, 401, {
      error: 'unauthorized',
      message: 'an approval needs Authorization: Bearer with mcp.definitionPins.approvalToken',
    });
  }
  const hash = await readHash(req);
  const bundle = decoded(rawBundle);
  const tool = decoded(rawTool);
  if (hash === undefined || bundle === undefined || tool === undefined)
    return sendJson(res, 400, {
      error: 'bad_request',
      message: 'the body must be {"hash": "sha256:..."}, the hash toolBundles shows as currentHash',
    });
  const outcome = await options.definitions.approve(bundle, tool, hash);
  switch (outcome.outcome) {
    case 'unknown-tool':
      return sendJson(res, 404, {
        error: 'unknown_tool',
        message: `bundle ${printableName(bundle)} has no reviewed tool ${printableName(tool)} (definitionChanges warn or hold, listed by its source)`,
      });
    case 'not-current':
      return sendJson(res, 409, {
        error: 'not_current',
        message: `the tool's current definition is ${outcome.currentHash}, not the one named: review it and approve that hash`,
        currentHash: outcome.currentHash,
      });
    default:
      await refreshNow(options.catalogue, bundle);
      return sendJson(res, 200, { bundle, tool, approvedHash: outcome.hash });
  }
}

/** Compared as digests, in constant time: the token's length and content are not told by the time taken. */
function bearerMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  if (match === null) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(expected));
}

async function readHash(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end even when too long (dropped), so the answer is not cut by a destroyed request.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES) return undefined;
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { hash?: unknown } | null;
    return typeof body?.hash === 'string' && /^sha256:[0-9a-f]{64}$/.test(body.hash) ? body.hash : undefined;
  } catch {
    return undefined;
  }
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The bundle read again now, its turn waited for when a refresh ran moments ago. */
async function refreshNow(catalogue: Pick<LiveCatalogue, 'requestRefresh'>, bundle: string): Promise<void> {
  for (let attempt = 0; attempt < REFRESH_ATTEMPTS; attempt++) {
    const refresh = await catalogue.requestRefresh(bundle);
    if (refresh.outcome !== 'too-soon') return;
    await sleep(refresh.retryAfterMillis);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
