import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { printableName } from '@toolmesh/protocol';
import type { LiveCatalogue } from '@toolmesh/registry';

import { operatorAuthorized, readJsonBody, sendJson } from '../call/operator-request';
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
  if (!operatorAuthorized(req, res, options.token(), 'approving definitions')) return;
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

async function readHash(req: IncomingMessage): Promise<string | undefined> {
  const body = (await readJsonBody(req, MAX_BODY_BYTES)) as { hash?: unknown } | null | undefined;
  return typeof body?.hash === 'string' && /^sha256:[0-9a-f]{64}$/.test(body.hash) ? body.hash : undefined;
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
