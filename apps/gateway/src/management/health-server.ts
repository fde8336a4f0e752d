import type { IncomingMessage, ServerResponse } from 'node:http';

import { printableName } from '@toolmesh/protocol';
import type { RequestedRefresh } from '@toolmesh/registry';
import { listenHttp } from '@toolmesh/transport-http/server';

/** What the probes and the status endpoint report. */
export interface HealthState {
  /** Readiness (SPEC G17): the first discovery attempt ended and a usable catalogue snapshot exists. */
  ready(): boolean;
  /** `GET /actuator/toolBundles`: each bundle's state, as a JSON value. */
  toolBundles(): unknown;
  /** `POST /actuator/toolBundles/{bundle}/refresh`: that bundle's manifests read now, not at the TTL. */
  refreshBundle(bundle: string): Promise<RequestedRefresh>;
  /** The catalogue generation's ETag, sent with `toolBundles` (issue 46): it changes when the served tool list does. */
  catalogueEtag?(): string | undefined;
  /** More endpoints (an approval of a pinned definition): each answers true when the path is its own. */
  readonly handlers?: ReadonlyArray<(req: IncomingMessage, res: ServerResponse, path: string) => boolean>;
  /** `GET /metrics` in Prometheus' text format; absent when metrics are off (`server.metricsEnabled`). */
  readonly metrics?: { text(): Promise<string>; readonly contentType: string };
}

export interface ManagementServer {
  readonly url: string;
  close(): Promise<void>;
}

type Route = (res: ServerResponse) => void;

const REFRESH_PATH = /^\/actuator\/toolBundles\/([^/]+)\/refresh$/;

/**
 * The management port (SPEC G17, G23): liveness and readiness probes, the catalogue's status and the Prometheus metrics, kept apart from the MCP port so that
 * probes and scrapes never compete with agent traffic and never need the MCP headers.
 */
export async function startManagementServer(port: number, host: string, health: HealthState): Promise<ManagementServer> {
  const routes: Record<string, Route> = {
    '/actuator/health': (res) => sendStatus(res, health.ready()),
    '/actuator/health/liveness': (res) => sendStatus(res, true),
    '/actuator/health/readiness': (res) => sendStatus(res, health.ready()),
    '/actuator/toolBundles': (res) => {
      // Weak: it names the tool list the rows describe, not the rows' own times and errors.
      const etag = health.catalogueEtag?.();
      if (etag !== undefined) res.setHeader('etag', `W/"${etag}"`);
      sendJson(res, 200, health.toolBundles());
    },
  };
  const { metrics } = health;
  if (metrics) {
    routes['/metrics'] = (res) =>
      void metrics.text().then(
        (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        () => sendJson(res, 500, { error: 'metrics_failed', message: 'the metrics could not be collected' }),
      );
  }
  const server = await listenHttp(
    (req: IncomingMessage, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://management').pathname;
      const bundle = bundleToRefresh(path);
      const route = req.method === 'GET' ? routes[path] : undefined;
      if (bundle !== undefined) refreshBundle(req, res, bundle, health);
      else if (route) route(res);
      else if (health.handlers?.some((handle) => handle(req, res, path))) return;
      else sendJson(res, 404, { error: 'not_found', message: `no management endpoint ${req.method} ${printableName(path)}` });
    },
    { port, host },
  );
  return { url: server.url, close: () => server.close() };
}

function bundleToRefresh(path: string): string | undefined {
  const match = REFRESH_PATH.exec(path);
  try {
    return match ? decodeURIComponent(match[1]) : undefined;
  } catch {
    return undefined; // malformed %-escapes: no such endpoint
  }
}

/**
 * A tool service (or an operator) asks for its bundle's refresh after changing its manifest. The port has
 * no credentials of its own: it is reached only by what may reach the probes (its bind address, the
 * NetworkPolicy), so a request from a browser page, which carries Origin, is refused.
 */
function refreshBundle(req: IncomingMessage, res: ServerResponse, bundle: string, health: HealthState): void {
  req.resume(); // no body is read
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    return sendJson(res, 405, { error: 'method_not_allowed', message: 'a bundle refresh is a POST' });
  }
  if (req.headers.origin !== undefined)
    return sendJson(res, 403, { error: 'forbidden', message: 'the management port does not answer browser requests (Origin present)' });
  void health.refreshBundle(bundle).then(
    (refresh) => {
      switch (refresh.outcome) {
        case 'unknown-route':
          return sendJson(res, 404, { error: 'unknown_bundle', message: `no bundle ${printableName(bundle)}` });
        case 'too-soon': {
          const seconds = Math.max(1, Math.ceil(refresh.retryAfterMillis / 1000));
          res.setHeader('retry-after', String(seconds));
          return sendJson(res, 429, {
            error: 'too_many_requests',
            message: `bundle ${printableName(bundle)} was refreshed on request moments ago; retry after ${seconds} s`,
          });
        }
        default:
          // 502 when the tool service's manifest could not be read or used; the row says why (lastError).
          return sendJson(res, refresh.failed ? 502 : 200, refresh.bundle);
      }
    },
    () => sendJson(res, 500, { error: 'refresh_failed', message: 'the refresh could not be run' }),
  );
}

function sendStatus(res: ServerResponse, up: boolean): void {
  sendJson(res, up ? 200 : 503, { status: up ? 'UP' : 'DOWN' });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
