import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { invalidRequest } from '@toolmesh/protocol';

import { replyToClientError } from './client-error-reply';
import { sendJsonRpcError } from './error-responses';

export interface RunningHttpServer {
  readonly url: string;
  readonly server: Server;
  inFlight(): number;
  /**
   * Graceful shutdown (SPEC G12): stop accepting connections, let in-flight requests finish for at most
   * `drainMillis`, then cut what is left. Resolves when the server is closed.
   */
  close(drainMillis?: number): Promise<void>;
}

/** How long a client may take, and how many connections it may hold (SPEC G26: slow clients are bounded). */
export interface ConnectionLimits {
  /** Keep-alive idle timeout; above a typical load balancer's, so the balancer closes first. */
  keepAliveTimeoutMillis?: number;
  /** Time to receive a request's headers, from its first byte (slowloris). */
  headersTimeoutMillis?: number;
  /** Time to receive a whole request, headers and body; the handler's own work is not counted. */
  requestTimeoutMillis?: number;
  /** Connections beyond this many are closed as they arrive, before a byte is read. Unset: no cap. */
  maxConnections?: number;
}

export interface ListenOptions extends ConnectionLimits {
  port: number;
  host: string;
}

const DEFAULT_LIMITS = { keepAliveTimeoutMillis: 65_000, headersTimeoutMillis: 10_000, requestTimeoutMillis: 30_000 };

export async function listenHttp(handler: RequestListener, options: ListenOptions): Promise<RunningHttpServer> {
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | undefined;
  /** The latest response of each connection, to tell whether a connection error may still be answered. */
  const responses = new WeakMap<Duplex, ServerResponse>();
  const track = (req: IncomingMessage, res: ServerResponse) => {
    inFlight += 1;
    responses.set(req.socket, res);
    res.on('close', () => {
      // A response closes once; `on` spares the wrapper `once` makes on every request.
      inFlight -= 1;
      if (draining && inFlight === 0) drained?.();
    });
  };
  const headersTimeout = options.headersTimeoutMillis ?? DEFAULT_LIMITS.headersTimeoutMillis;
  const server = createServer(
    {
      keepAliveTimeout: options.keepAliveTimeoutMillis ?? DEFAULT_LIMITS.keepAliveTimeoutMillis,
      headersTimeout,
      requestTimeout: options.requestTimeoutMillis ?? DEFAULT_LIMITS.requestTimeoutMillis,
      // Node enforces both timeouts only when it checks its connections, every 30 s by default: that let
      // slowloris hold connections for 77 s. A check is a walk over the open connections; once a second is cheap.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4))),
      // Node's own refusal of an HTTP/1.1 request without Host has an empty body; this one is JSON-RPC.
      requireHostHeader: false,
    },
    (req, res) => {
      track(req, res);
      if (req.headers.host === undefined && req.httpVersion === '1.1') {
        res.setHeader('Connection', 'close');
        sendJsonRpcError(res, 400, invalidRequest(null, 'an HTTP/1.1 request must carry a Host header'));
        return;
      }
      handler(req, res);
    },
  );
  if (options.maxConnections !== undefined) server.maxConnections = options.maxConnections;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const response = responses.get(socket);
    replyToClientError(error, socket, response !== undefined && response.headersSent && !response.writableFinished);
  });
  // `Expect: 100-continue`: "100 Continue" goes out only once the handler starts reading the body, so a
  // request it refuses from its headers alone (e.g. a Content-Length over the limit) gets the refusal
  // instead, and the client never sends the body. Node would send it before the handler runs.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    track(req, res);
    req.once('resume', () => {
      if (!res.headersSent) res.writeContinue();
    });
    handler(req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    track(req, res);
    res.setHeader('Connection', 'close');
    sendJsonRpcError(res, 417, invalidRequest(null, 'the only expectation served is Expect: 100-continue'));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;

  return {
    url,
    server,
    inFlight: () => inFlight,
    close: async (drainMillis = 0) => {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, drainMillis).unref();
        });
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
