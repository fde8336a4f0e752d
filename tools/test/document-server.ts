import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A reply the test scripts: a JSON document, or a failure of the kind named. */
export type ScriptedReply = { json: unknown } | { status: number } | 'hang-up';

/**
 * A real HTTP server (port 0) that serves documents the test changes at will (a tool service's manifest,
 * a portal registry, a routing hint), counts GETs per path, and can be broken.
 */
export class DocumentServer {
  private readonly replies = new Map<string, ScriptedReply>();
  private readonly counts = new Map<string, number>();
  private server: Server | undefined;
  private holding = false;
  private readonly held: Array<() => void> = [];
  /** Milliseconds every reply waits, so concurrent requests overlap a fetch. */
  delayMillis = 0;

  get url(): string {
    const { port } = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      this.counts.set(path, this.fetches(path) + 1);
      const answer = () =>
        setTimeout(() => {
          const reply = this.replies.get(path) ?? { status: 404 };
          if (reply === 'hang-up') res.destroy();
          else if ('json' in reply) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
          else res.writeHead(reply.status).end();
        }, this.delayMillis);
      if (this.holding) this.held.push(answer);
      else answer();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  serve(path: string, reply: ScriptedReply): this {
    this.replies.set(path, reply);
    return this;
  }

  /** From now on, requests wait unanswered until release(): a tool service still thinking, deterministically. */
  hold(): void {
    this.holding = true;
  }

  /** Answers every held request with what is served now, and stops holding. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  fetches(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}
