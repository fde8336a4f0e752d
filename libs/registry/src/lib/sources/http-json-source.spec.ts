import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { RegistryError, RegistryErrorCode } from '../errors';
import { PORTAL_DOCUMENT } from '../model/json-source';
import { HttpJsonSource, type HttpJsonSourceOptions } from './http-json-source';

describe('HttpJsonSource (got, the catalogue keep-alive pool)', () => {
  let server: Server;
  let reply: { status: number; body: string; delayMillis?: number; chunked?: boolean };
  beforeAll(async () => {
    server = createServer((req, res) => {
      // A hostile tool service: its manifest path sends the fetch elsewhere, on its own origin or another.
      if (req.url === '/moved-here') return void res.writeHead(302, { location: '/doc' }).end();
      if (req.url === '/moved-away')
        return void res.writeHead(307, { location: `http://localhost:${(server.address() as AddressInfo).port}/doc` }).end();
      // Chunked, the service announces no length: the download is stopped past the cap.
      if (reply.chunked) return void res.writeHead(reply.status, { 'content-type': 'application/json' }).write(reply.body, () => res.end());
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply.body) };
      setTimeout(() => res.writeHead(reply.status, headers).end(reply.body), reply.delayMillis ?? 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const at = (path: string) =>
    new HttpJsonSource(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`), {
      timeoutMillis: 2_000,
      maxBytes: 1_000,
    });

  const source = (options: HttpJsonSourceOptions = { timeoutMillis: 2_000, maxBytes: 1_000 }) =>
    new HttpJsonSource(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/doc?x=1`), options);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: RegistryError) => error.code,
    );

  it('parses the document and reports its location without the query', async () => {
    reply = { status: 200, body: '{"tools":[]}' };
    expect(await source().fetch()).toEqual({ tools: [] });
    expect(source().location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/doc$/);
  });

  it.each([
    ['an HTTP error', { status: 503, body: '{}' }, RegistryErrorCode.ManifestUnreachable],
    ['a body over maxBytes', { status: 200, body: JSON.stringify({ pad: 'x'.repeat(5_000) }) }, RegistryErrorCode.DocumentTooLarge],
    ['a reply slower than the timeout', { status: 200, body: '{}', delayMillis: 300 }, RegistryErrorCode.ManifestUnreachable],
    ['a body that is not JSON', { status: 200, body: '<html>' }, RegistryErrorCode.ManifestInvalid],
  ])('fails on %s with a RegistryError, never a document', async (_, scripted, code) => {
    reply = scripted;
    expect(await failure(source({ timeoutMillis: 100, maxBytes: 1_000 }).fetch())).toBe(code);
  });

  it('says how large a document over the cap is and which setting to raise, not that the download was cancelled', async () => {
    reply = { status: 200, body: JSON.stringify({ pad: 'x'.repeat(5_000) }) };
    const capped = source({ timeoutMillis: 2_000, maxBytes: 1_000, maxBytesSetting: 'openapi.maxDocumentBytes of bundle github' });
    await expect(capped.fetch()).rejects.toMatchObject({
      code: RegistryErrorCode.DocumentTooLarge,
      message: expect.stringMatching(
        /^manifest http:\/\/127\.0\.0\.1:\d+\/doc is 5010 bytes, over the limit of 1000 bytes \(openapi\.maxDocumentBytes of bundle github\); raise/,
      ),
    });
    reply = { status: 200, body: JSON.stringify({ pad: 'x'.repeat(5_000) }), chunked: true };
    await expect(source().fetch()).rejects.toMatchObject({
      message: expect.stringContaining('is larger than the limit of 1000 bytes (mcp.catalogue.maxManifestBytes); raise'),
    });
  });

  it('follows a redirect within its origin and says where the document was served from', async () => {
    reply = { status: 200, body: '{"tools":[]}' };
    const moved = at('/moved-here');
    expect(moved.servedFrom).toBeUndefined();
    expect(await moved.fetch()).toEqual({ tools: [] });
    expect(moved.servedFrom).toBe(`http://127.0.0.1:${(server.address() as AddressInfo).port}/doc`);
    expect(moved.location).toMatch(/\/moved-here$/);
  });

  it('refuses a redirect to another origin (another host name for the same server included)', async () => {
    reply = { status: 200, body: '{"tools":[]}' };
    const error = await at('/moved-away')
      .fetch()
      .then(
        () => undefined,
        (e: RegistryError) => e,
      );
    expect(error?.code).toBe(RegistryErrorCode.ManifestUnreachable);
    expect(error?.message).toMatch(/redirected to another origin \(http:\/\/localhost:\d+\), which is never followed/);
  });

  it('uses the codes of the document kind it reads', async () => {
    reply = { status: 500, body: '{}' };
    const portal = new HttpJsonSource(
      new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/portal`),
      { timeoutMillis: 1_000, maxBytes: 1_000 },
      PORTAL_DOCUMENT,
    );
    expect(await failure(portal.fetch())).toBe(RegistryErrorCode.PortalUnreachable);
  });
});

describe('HttpJsonSource when the service resets a connection', () => {
  type Mode = 'reset-reused-sockets' | 'reset-every-request' | 'reset-after-headers';
  let server: Server;
  let mode: Mode;
  let requests = 0;
  const served = new WeakSet<object>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      const reused = served.has(req.socket);
      served.add(req.socket);
      if (mode === 'reset-every-request' || (mode === 'reset-reused-sockets' && reused)) {
        req.socket.destroy(); // before any byte of a reply: the client sees "socket hang up"
        return;
      }
      if (mode === 'reset-after-headers') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"tools":', () => req.socket.destroy());
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"tools":[]}');
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    requests = 0;
  });

  const source = () =>
    new HttpJsonSource(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/tool-manifest`), {
      timeoutMillis: 5_000,
      maxBytes: 1_000,
    });

  it('retries a GET once on a fresh socket when the pooled one is reset before any reply byte', async () => {
    mode = 'reset-reused-sockets';
    expect(await source().fetch()).toEqual({ tools: [] }); // opens the connection the pool keeps
    requests = 0;
    expect(await source().fetch()).toEqual({ tools: [] });
    expect(requests).toBe(2); // the reset one and its one retry
  });

  it('retries never more than once: a second reset fails the fetch', async () => {
    mode = 'reset-every-request';
    const error = await source()
      .fetch()
      .then(
        () => undefined,
        (e: RegistryError) => e,
      );
    expect(error?.code).toBe(RegistryErrorCode.ManifestUnreachable);
    expect(error?.message).toMatch(/manifest http:\/\/127\.0\.0\.1:\d+\/tool-manifest: /);
    expect(requests).toBe(2);
  });

  it('does not retry once the reply has begun', async () => {
    mode = 'reset-after-headers';
    const error = await source()
      .fetch()
      .then(
        () => undefined,
        (e: RegistryError) => e,
      );
    expect(error?.code).toBe(RegistryErrorCode.ManifestUnreachable);
    expect(requests).toBe(1);
  });
});
