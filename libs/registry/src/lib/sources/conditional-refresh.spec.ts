import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { RouteLoader } from '../catalogue/route-loader';
import type { RouteConfig } from '../model/route';
import { capturedLog, FETCH_LIMITS, manifestOf } from '../test-support/catalogue-fixture';
import { HttpJsonSource } from './http-json-source';

/**
 * A large manifest refetched at every refresh is downloaded and read only when it changed (issue 43: a
 * 50,000-tool manifest was downloaded and parsed whole at each one). Against a real tool service on
 * loopback that counts what it sends: full answers (200 with the body) and 304s.
 */
type Validators = 'etag' | 'last-modified' | 'none';

class ManifestServer {
  body = '';
  validators: Validators = 'etag';
  full = 0;
  notModified = 0;
  private server: Server | undefined;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const etag = `"${createHash('sha256').update(this.body).digest('base64url')}"`;
      const lastModified = new Date(1_800_000_000_000 + this.body.length * 1_000).toUTCString();
      const unchanged =
        (this.validators === 'etag' && req.headers['if-none-match'] === etag) ||
        (this.validators === 'last-modified' && req.headers['if-modified-since'] === lastModified);
      const headers = this.validators === 'etag' ? { etag } : this.validators === 'last-modified' ? { 'last-modified': lastModified } : {};
      if (unchanged) {
        this.notModified += 1;
        return void res.writeHead(304, headers).end();
      }
      this.full += 1;
      res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(this.body);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  serve(manifest: unknown, validators: Validators): void {
    this.body = JSON.stringify(manifest);
    this.validators = validators;
    this.full = 0;
    this.notModified = 0;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }
}

const TOOLS = Array.from({ length: 2_000 }, (_, index) => `tool_${index}`);
/** A large manifest, with a short revision of its own (manifestOf's names every tool). */
const large = () => ({ ...manifestOf(...TOOLS), revision: 'r1' });
const LIMITS = { ...FETCH_LIMITS, maxBytes: 10_000_000 };

let service: ManifestServer;
beforeAll(async () => {
  service = await new ManifestServer().start();
});
afterAll(() => service?.stop());

describe('HttpJsonSource refetching a document', () => {
  const source = () => new HttpJsonSource(new URL(`${service.url}/tool-manifest`), LIMITS);

  it.each(['etag', 'last-modified'] as const)(
    'with %s: asks conditionally, gets 304s, and hands back the same document without reading anything',
    async (validators) => {
      service.serve(large(), validators);
      const manifest = source();
      const first = await manifest.fetch();
      for (let i = 0; i < 3; i += 1) expect(await manifest.fetch()).toBe(first);
      expect({ full: service.full, notModified: service.notModified }).toEqual({ full: 1, notModified: 3 });

      service.serve(manifestOf('changed'), validators);
      expect(await manifest.fetch()).toEqual(manifestOf('changed'));
      expect(service.full).toBe(1);
    },
  );

  it('without validators: the same bytes are downloaded but not parsed again (the same document), other bytes are', async () => {
    service.serve(large(), 'none');
    const manifest = source();
    const first = await manifest.fetch();
    expect(await manifest.fetch()).toBe(first);
    expect(service.full).toBe(2);
    service.serve(manifestOf('changed'), 'none');
    const changed = await manifest.fetch();
    expect(changed).not.toBe(first);
    expect(changed).toEqual(manifestOf('changed'));
  });
});

describe('RouteLoader over an unchanged manifest', () => {
  it('builds nothing again: the same tools, the fetch time moved on', async () => {
    service.serve(large(), 'etag');
    const route: RouteConfig = {
      token: 'big',
      services: [{ serviceDomain: `${service.url}/api`, manifest: new HttpJsonSource(new URL(`${service.url}/tool-manifest`), LIMITS) }],
    };
    let now = 1_800_000_000_000;
    const loader = new RouteLoader({ log: capturedLog(), limits: { maxTools: 10_000 }, now: () => now });
    const first = await loader.load(route, undefined);
    expect(first.lastError).toBeUndefined();
    expect(first.snapshot?.tools).toHaveLength(TOOLS.length);
    now += 60_000;
    const second = await loader.load(route, first);
    expect(second.snapshot?.tools).toBe(first.snapshot?.tools); // not validated or compiled again
    expect(second.snapshot?.fetchedAt).toBe(now);
    expect(second.lastSuccessAt).toBe(now);
    expect({ full: service.full, notModified: service.notModified }).toEqual({ full: 1, notModified: 1 });
  });
});
