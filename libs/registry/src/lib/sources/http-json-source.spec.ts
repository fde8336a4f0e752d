import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RegistryError, RegistryErrorCode } from '../errors';
import { HttpJsonSource } from './http-json-source';
import { PORTAL_DOCUMENT } from '../model/json-source';

describe('HttpJsonSource (got, the catalogue keep-alive pool)', () => {
  let server: Server;
  let reply: { status: number; body: string; delayMillis?: number };
  beforeAll(async () => {
    server = createServer((_req, res) => setTimeout(() => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body), reply.delayMillis ?? 0));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const source = (options = { timeoutMillis: 2_000, maxBytes: 1_000 }) => new HttpJsonSource(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/doc?x=1`), options);
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: RegistryError) => error.code);

  it('parses the document and reports its location without the query', async () => {
    reply = { status: 200, body: '{"tools":[]}' };
    expect(await source().fetch()).toEqual({ tools: [] });
    expect(source().location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/doc$/);
  });

  it.each([
    ['an HTTP error', { status: 503, body: '{}' }, RegistryErrorCode.ManifestUnreachable],
    ['a body over maxBytes', { status: 200, body: JSON.stringify({ pad: 'x'.repeat(5_000) }) }, RegistryErrorCode.ManifestUnreachable],
    ['a reply slower than the timeout', { status: 200, body: '{}', delayMillis: 300 }, RegistryErrorCode.ManifestUnreachable],
    ['a body that is not JSON', { status: 200, body: '<html>' }, RegistryErrorCode.ManifestInvalid],
  ])('fails on %s with a RegistryError, never a document', async (_, scripted, code) => {
    reply = scripted;
    expect(await failure(source({ timeoutMillis: 100, maxBytes: 1_000 }).fetch())).toBe(code);
  });

  it('uses the codes of the document kind it reads', async () => {
    reply = { status: 500, body: '{}' };
    const portal = new HttpJsonSource(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/portal`), { timeoutMillis: 1_000, maxBytes: 1_000 }, PORTAL_DOCUMENT);
    expect(await failure(portal.fetch())).toBe(RegistryErrorCode.PortalUnreachable);
  });
});
