import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Levels of nesting in the deep reply: 2 bytes each, so the reply stays under the gateway's 8 MB reply limit. */
export const DEEP_REPLY_LEVELS = 4_000_000;
/** Tools in the oversized manifest: far over the gateway's default `maxTools` (2,000). */
const HUGE_MANIFEST_TOOLS = 50_000;

/**
 * A real HTTP tool service (port 0) that attacks the gateway in front of it, as issue 32's second attack
 * run did. Its manifest (`/tool-manifest`) offers:
 * - `echo`: answers `{"data": <arguments>}` at once (the neighbour whose latency must not suffer);
 * - `deep_reply`: answers 200 with 8 MB of nested arrays, written as fast as the gateway reads them;
 * - `stuck_a`, `stuck_b`: read the call and never answer, until `releaseStuck()`;
 * - `deep_schema`: a tool whose inputSchema nests 5,000 levels.
 * Other manifest paths: `/moved-manifest` redirects (302) within the origin to `/moved-target`;
 * `/away-manifest` redirects (307) to the same server under another origin (`localhost`); `/huge-manifest`
 * offers 50,000 tools.
 */
export class HostileToolService {
  private server: Server | undefined;
  private readonly stuck = new Set<ServerResponse>();
  private stuckReceived = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  /** Calls of `stuck_a` and `stuck_b` that reached the service. */
  stuckCalls(): number {
    return this.stuckReceived;
  }

  /** Answers every stuck call, so the gateway's connections come back. */
  releaseStuck(): void {
    for (const res of this.stuck) res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"released"}');
    this.stuck.clear();
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => this.answer(req.url ?? '/', body, res));
    });
    this.server.maxConnections = Infinity;
    await new Promise<void>((resolve) => this.server?.listen({ port: 0, host: '127.0.0.1', backlog: 1024 }, resolve));
    return this;
  }

  private answer(path: string, body: string, res: ServerResponse): void {
    const json = (document: unknown): void =>
      void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(typeof document === 'string' ? document : JSON.stringify(document));
    switch (path) {
      case '/tool-manifest':
        return json(HOSTILE_MANIFEST);
      case '/moved-manifest':
        return void res.writeHead(302, { location: '/moved-target' }).end();
      case '/moved-target':
        return json({ tools: [{ name: 'moved_echo', inputSchema: { type: 'object' }, endpoint: '/tools/echo' }] });
      case '/away-manifest':
        return void res.writeHead(307, { location: `http://localhost:${this.port}/away-target` }).end();
      case '/away-target':
        return json({ tools: [{ name: 'away_echo', inputSchema: { type: 'object' }, endpoint: '/tools/echo' }] });
      case '/huge-manifest':
        return json(HUGE_MANIFEST);
      case '/tools/echo':
        return json(`{"data":${body || '{}'}}`);
      case '/tools/deep_reply':
        return writeDeepReply(res);
      case '/tools/stuck_a':
      case '/tools/stuck_b':
        this.stuckReceived += 1;
        this.stuck.add(res);
        res.once('close', () => this.stuck.delete(res));
        return;
      default:
        res.writeHead(404).end();
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}

/** `{"data":[[[...]]]}` with `levels` arrays, in 64 KB writes that wait for the socket, until the reader hangs up. */
export function writeDeepReply(res: ServerResponse, levels = DEEP_REPLY_LEVELS, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  const chunk = 64 * 1024;
  const parts = ['{"data":', ...repeatIn('[', levels, chunk), ...repeatIn(']', levels, chunk), '}'];
  let next = 0;
  const write = (): void => {
    while (next < parts.length && !res.destroyed) {
      if (!res.write(parts[next++])) return void res.once('drain', write);
    }
    if (!res.destroyed) res.end();
  };
  write();
}

function* repeatIn(text: string, count: number, size: number): Generator<string> {
  for (let left = count; left > 0; left -= size) yield text.repeat(Math.min(size, left));
}

const ARGS = { type: 'object', properties: { text: { type: 'string' } } };
const SHALLOW_TOOLS = [
  { name: 'echo', description: 'Answers with its arguments.', inputSchema: ARGS, endpoint: '/tools/echo' },
  { name: 'deep_reply', description: 'Answers with 8 MB of nested arrays.', inputSchema: ARGS, endpoint: '/tools/deep_reply' },
  { name: 'stuck_a', description: 'Never answers.', inputSchema: ARGS, endpoint: '/tools/stuck_a' },
  { name: 'stuck_b', description: 'Never answers.', inputSchema: ARGS, endpoint: '/tools/stuck_b' },
];
/** Written as text: `JSON.stringify` itself overflows the stack on 5,000 levels. */
const DEEP_SCHEMA = `${'{"type":"object","properties":{"a":'.repeat(5_000)}{"type":"string"}${'}}'.repeat(5_000)}`;
const DEEP_TOOL = `{"name":"deep_schema","description":"A schema nested 5,000 levels.","endpoint":"/tools/echo","inputSchema":${DEEP_SCHEMA}}`;
export const HOSTILE_MANIFEST = `{"manifestVersion":"1","revision":"hostile-1","tools":[${[...SHALLOW_TOOLS.map((tool) => JSON.stringify(tool)), DEEP_TOOL].join(',')}]}`;
/** About 7.9 MB, under the gateway's 8 MB manifest limit: only the count gives it away. */
export const HUGE_MANIFEST = JSON.stringify({
  tools: Array.from({ length: HUGE_MANIFEST_TOOLS }, (_, i) => ({
    name: `bulk_${i}`,
    description: 'Bulk.',
    inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: i + 1 } } },
    endpoint: '/tools/echo',
  })),
});
