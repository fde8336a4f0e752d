import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP tool service (port 0) with two tools: `never_replies`, which reads the call and never
 * answers, and `echo`, which answers `{"data": <the arguments>}` at once. It counts the calls of
 * `never_replies` that arrived and those whose connection the caller then closed.
 */
export class StallingToolService {
  private server: Server | undefined;
  private readonly stalled = new Set<ServerResponse>();
  private received = 0;
  private closed = 0;

  get url(): string {
    const { port } = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Calls of `never_replies` received so far, and how many of them the caller has closed. */
  stalledCalls(): { received: number; closed: number } {
    return { received: this.received, closed: this.closed };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        if (req.url === '/tool-manifest') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(MANIFEST));
        } else if (req.url === '/tools/echo') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":${body}}`);
        } else if (req.url === '/tools/never_replies') {
          this.received += 1;
          this.stalled.add(res);
          res.once('close', () => {
            this.closed += 1;
            this.stalled.delete(res);
          });
        } else {
          res.writeHead(404).end();
        }
      });
    });
    // Every abandoned call must be able to reach the service at once, whatever the gateway's pool.
    this.server.maxConnections = Infinity;
    await new Promise<void>((resolve) => this.server?.listen({ port: 0, host: '127.0.0.1', backlog: 1024 }, resolve));
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}

const ARGS = { type: 'object', properties: { text: { type: 'string' } } };
const MANIFEST = {
  manifestVersion: '1',
  revision: 'stalling-1',
  service: { name: 'stalling', title: 'Stalling tools' },
  tools: [
    { name: 'never_replies', description: 'Reads the call and never answers.', inputSchema: ARGS, endpoint: '/tools/never_replies' },
    { name: 'echo', description: 'Answers with its arguments.', inputSchema: ARGS, endpoint: '/tools/echo' },
  ],
};
