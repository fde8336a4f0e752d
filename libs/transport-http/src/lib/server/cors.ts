import type { IncomingMessage, ServerResponse } from 'node:http';

import { invalidRequest } from '@toolmesh/protocol';

import { sendJsonRpcError } from './error-responses';
import { checkOrigin, type OriginPolicy } from './origin-guard';

/**
 * CORS for browser-based MCP clients (SPEC G26): an origin of `allowedOrigins` may call the endpoint and
 * read the headers MCP needs; a preflight from any other origin is refused, so a browser never sends it.
 */
const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
/** What MCP clients send: the 2025 headers, and the 2026-07-28 ones (`mcp-param-*` is a family of names). */
const ALLOWED_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
  'mcp-method',
  'mcp-name',
]);
const ALLOWED_HEADER_PREFIX = 'mcp-param-';
/**
 * What a browser client may read of an answer: the session and version it continues with, the correlation
 * ids, an authentication challenge (the MCP authorization spec's discovery starts from it) and when to retry.
 */
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version, x-request-id, guid, www-authenticate, retry-after';
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** `OPTIONS` with `Origin` and `Access-Control-Request-Method`: a browser asking before the real request. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

/** On every answer to an allowed origin (and host): who may read it, and which headers. Others get none. */
export function addCorsHeaders(req: IncomingMessage, res: ServerResponse, policy: OriginPolicy): void {
  const origin = req.headers.origin;
  if (origin === undefined || !checkOrigin(req.headers, policy).ok) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

/** 204 with what an allowed origin may send; 403 (JSON-RPC, no `Access-Control-*`) for any other origin or host. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse, policy: OriginPolicy): void {
  const check = checkOrigin(req.headers, policy);
  if (!check.ok) {
    sendJsonRpcError(res, 403, invalidRequest(null, `forbidden: ${check.reason}`));
    return;
  }
  res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
  res.setHeader('Access-Control-Allow-Headers', allowedHeaders(req.headers['access-control-request-headers']));
  res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
  res.writeHead(204).end();
}

/** The allowed headers, and those of the requested ones that are allowed by prefix (a browser needs each named). */
function allowedHeaders(requested: string | undefined): string {
  const names = [...ALLOWED_HEADERS];
  for (const name of requested?.split(',') ?? []) {
    const header = name.trim().toLowerCase();
    if (header.startsWith(ALLOWED_HEADER_PREFIX) && /^[a-z0-9-]+$/.test(header) && !names.includes(header)) names.push(header);
  }
  return names.join(', ');
}
