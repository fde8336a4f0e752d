import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the service received, as it arrived: the raw request target, never normalised. */
export interface RecordedRequest {
  readonly method: string;
  /** The request target exactly as sent (path and query, still percent-encoded). */
  readonly target: string;
  readonly host: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface RestReply {
  readonly status: number;
  readonly json?: unknown;
  readonly contentType?: string;
}

/**
 * A REST service on loopback (port 0) for OpenAPI sources: it serves documents the test changes at will
 * (under `/openapi/`), and answers every other request with what `answer` says while recording it, so a
 * test sees each method, raw path, query and header the gateway sent, and nothing else.
 */
export class RecordingRestService {
  private readonly documents = new Map<string, unknown>();
  private server: Server | undefined;
  readonly requests: RecordedRequest[] = [];
  /** How the API answers; a 404 problem (RFC 9457) unless the test says otherwise. */
  answer: (request: RecordedRequest) => RestReply = () => ({
    status: 404,
    contentType: 'application/problem+json',
    json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such resource' },
  });

  get url(): string {
    const { port } = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const target = req.url ?? '';
        if (req.method === 'GET' && this.documents.has(target)) {
          const document = this.documents.get(target);
          const text = typeof document === 'string' ? document : JSON.stringify(document);
          // With its length, as a web server serves a file: a document over a cap is refused by its size.
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
          return;
        }
        const request = {
          method: req.method ?? '',
          target,
          host: req.headers.host,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(request);
        const reply = this.answer(request);
        res.writeHead(reply.status, reply.json === undefined ? {} : { 'content-type': reply.contentType ?? 'application/json' });
        res.end(reply.json === undefined ? undefined : JSON.stringify(reply.json));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Serves `document` (an object, or raw text) at `path`, which should start with `/openapi/`. */
  serve(path: string, document: unknown): this {
    this.documents.set(path, document);
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}
