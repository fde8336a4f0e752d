import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenHttp } from '@toolmesh/transport-http/server';

/** What the probes and the status endpoint report. */
export interface HealthState {
  /** Readiness (SPEC G17): the first discovery attempt ended and a usable catalogue snapshot exists. */
  ready(): boolean;
  /** `GET /actuator/toolBundles`: each bundle's state, as a JSON value. */
  toolBundles(): unknown;
  /** `GET /metrics` in Prometheus' text format; absent when metrics are off (`server.metricsEnabled`). */
  readonly metrics?: { text(): Promise<string>; readonly contentType: string };
}

export interface ManagementServer {
  readonly url: string;
  close(): Promise<void>;
}

type Route = (res: ServerResponse) => void;

/**
 * The management port (SPEC G17, G23): liveness and readiness probes, the catalogue's status and the Prometheus metrics, kept apart from the MCP port so that
 * probes and scrapes never compete with agent traffic and never need the MCP headers.
 */
export async function startManagementServer(port: number, host: string, health: HealthState): Promise<ManagementServer> {
  const routes: Record<string, Route> = {
    '/actuator/health': (res) => sendStatus(res, health.ready()),
    '/actuator/health/liveness': (res) => sendStatus(res, true),
    '/actuator/health/readiness': (res) => sendStatus(res, health.ready()),
    '/actuator/toolBundles': (res) => sendJson(res, 200, health.toolBundles()),
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
      const route = req.method === 'GET' ? routes[new URL(req.url ?? '/', 'http://management').pathname] : undefined;
      if (route) route(res);
      else sendJson(res, 404, { error: 'not_found', message: `no management endpoint ${req.method} ${req.url}` });
    },
    { port, host },
  );
  return { url: server.url, close: () => server.close() };
}

function sendStatus(res: ServerResponse, up: boolean): void {
  sendJson(res, up ? 200 : 503, { status: up ? 'UP' : 'DOWN' });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
