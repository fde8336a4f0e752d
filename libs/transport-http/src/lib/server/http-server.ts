import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface ListenOptions {
  port: number;
  host: string;
  /** Keep-alive idle timeout; above a typical load balancer's, so the balancer closes first. */
  keepAliveTimeoutMillis?: number;
}

export async function listenHttp(handler: RequestListener, options: ListenOptions): Promise<RunningHttpServer> {
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | undefined;
  const server = createServer((req, res) => {
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      if (draining && inFlight === 0) drained?.();
    });
    handler(req, res);
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMillis ?? 65_000;

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
