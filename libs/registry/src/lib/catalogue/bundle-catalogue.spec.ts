import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RegistryError, RegistryErrorCode } from '../errors';
import { HttpManifestSource } from '../sources/http-manifest-source';
import type { ManifestSource } from '../sources/manifest-source';
import { BundleCatalogue, type BundleConfig, type CatalogueLog } from './bundle-catalogue';

const schema = { type: 'object' };
const manifestOf = (...names: string[]) => ({ tools: names.map((name) => ({ name, inputSchema: schema, endpoint: `/tools/${name}` })) });

/** A manifest source scripted by the test; counts fetches and can be made to fail. */
class ScriptedSource implements ManifestSource {
  readonly location = 'scripted';
  fetches = 0;
  constructor(public document: unknown) {}
  async fetch(): Promise<unknown> {
    this.fetches += 1;
    if (this.document instanceof Error) throw this.document;
    return this.document;
  }
}

const silent: CatalogueLog = { info: () => undefined, warn: () => undefined };
const bundle = (name: string, source: ManifestSource): BundleConfig => ({ name, serviceDomain: 'http://tools.internal', source });
const limits = { maxTools: 100, maxSerializedBytes: 1_000_000 };
const names = (catalogue: BundleCatalogue) => [...(catalogue.current()?.tools.keys() ?? [])];

describe('BundleCatalogue', () => {
  it('merges bundles into one generation with a pre-serialized tools/list result', async () => {
    const catalogue = new BundleCatalogue({
      bundles: [bundle('a', new ScriptedSource(manifestOf('a1', 'a2'))), bundle('b', new ScriptedSource(manifestOf('b1')))],
      limits,
      forcedRefreshCooldownMillis: 5_000,
      log: silent,
    });
    const generation = await catalogue.ensureLoaded();
    expect(names(catalogue)).toEqual(['a1', 'a2', 'b1']);
    expect(JSON.parse(generation?.toolsListResult.json ?? '')).toEqual({
      tools: ['a1', 'a2', 'b1'].map((name) => ({ name, inputSchema: schema })),
    });
  });

  it('keeps the last good tools of a bundle whose fetch fails, and drops tools only a successful manifest omits', async () => {
    const source = new ScriptedSource(manifestOf('x', 'y'));
    const catalogue = new BundleCatalogue({ bundles: [bundle('a', source)], limits, forcedRefreshCooldownMillis: 0, log: silent });
    await catalogue.refreshAll();
    source.document = new RegistryError(RegistryErrorCode.ManifestUnreachable, 'down');
    await catalogue.refreshAll();
    expect(names(catalogue)).toEqual(['x', 'y']);
    source.document = { tools: 'broken' };
    await catalogue.refreshAll();
    expect(names(catalogue)).toEqual(['x', 'y']);
    source.document = manifestOf('x');
    await catalogue.refreshAll();
    expect(names(catalogue)).toEqual(['x']);
  });

  it('keeps the old generation when a refresh would collide names or exceed the caps', async () => {
    const a = new ScriptedSource(manifestOf('shared', 'a1'));
    const b = new ScriptedSource(manifestOf('b1'));
    const warnings: string[] = [];
    const log: CatalogueLog = { info: () => undefined, warn: (event, fields) => warnings.push(`${event} ${String(fields.code)}`) };
    const catalogue = new BundleCatalogue({ bundles: [bundle('a', a), bundle('b', b)], limits: { maxTools: 3, maxSerializedBytes: 1_000_000 }, forcedRefreshCooldownMillis: 0, log });
    const first = await catalogue.refreshAll();

    b.document = manifestOf('b1', 'shared');
    await catalogue.refreshAll();
    expect(catalogue.current()).toBe(first);

    b.document = manifestOf('b1', 'b2');
    await catalogue.refreshAll();
    expect(catalogue.current()).toBe(first);
    expect(warnings).toEqual([`catalogue_refresh_rejected ${RegistryErrorCode.NameCollision}`, `catalogue_refresh_rejected ${RegistryErrorCode.CatalogueTooLarge}`]);
  });

  it('keeps the same generation object when nothing changed, so per-generation caches survive', async () => {
    const catalogue = new BundleCatalogue({ bundles: [bundle('a', new ScriptedSource(manifestOf('x')))], limits, forcedRefreshCooldownMillis: 0, log: silent });
    const first = await catalogue.refreshAll();
    expect(await catalogue.refreshAll()).toBe(first);
  });

  it('refreshes at most once per cooldown for unknown names', async () => {
    let now = 0;
    const source = new ScriptedSource(manifestOf('x'));
    const catalogue = new BundleCatalogue({ bundles: [bundle('a', source)], limits, forcedRefreshCooldownMillis: 5_000, log: silent, now: () => now });
    await catalogue.ensureLoaded();
    await catalogue.refreshForUnknownTool('nope');
    await catalogue.refreshForUnknownTool('nope');
    now = 4_999;
    await catalogue.refreshForUnknownTool('nope');
    expect(source.fetches).toBe(2);
    now = 5_000;
    source.document = manifestOf('x', 'nope');
    expect((await catalogue.refreshForUnknownTool('nope'))?.tools.has('nope')).toBe(true);
    expect(source.fetches).toBe(3);
  });

  describe('over HTTP (got)', () => {
    let server: Server;
    let fetches = 0;
    let delayMillis = 0;
    let body = JSON.stringify(manifestOf('remote'));

    beforeAll(async () => {
      server = createServer((_req, res) => {
        fetches += 1;
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(body), delayMillis);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    const httpBundle = (maxBytes = 1_000_000, timeoutMillis = 2_000) => {
      const { port } = server.address() as AddressInfo;
      return bundle('remote', new HttpManifestSource(new URL(`http://127.0.0.1:${port}/tool-manifest`), { timeoutMillis, maxBytes }));
    };

    it('shares one fetch among 50 concurrent loads (single flight)', async () => {
      fetches = 0;
      delayMillis = 100;
      const catalogue = new BundleCatalogue({ bundles: [httpBundle()], limits, forcedRefreshCooldownMillis: 0, log: silent });
      const generations = await Promise.all(Array.from({ length: 50 }, () => catalogue.ensureLoaded()));
      expect(fetches).toBe(1);
      expect(new Set(generations).size).toBe(1);
      expect(generations[0]?.tools.has('remote')).toBe(true);
    });

    it('reports an oversized, slow or non-JSON manifest as a failed fetch, never as tools', async () => {
      const warnings: string[] = [];
      const log: CatalogueLog = { info: () => undefined, warn: (event, fields) => warnings.push(`${event}:${String(fields.code)}`) };
      delayMillis = 0;
      body = JSON.stringify(manifestOf(...Array.from({ length: 200 }, (_, i) => `tool_${i}`)));
      await new BundleCatalogue({ bundles: [httpBundle(1_000)], limits, forcedRefreshCooldownMillis: 0, log }).refreshAll();
      body = 'not json';
      await new BundleCatalogue({ bundles: [httpBundle()], limits, forcedRefreshCooldownMillis: 0, log }).refreshAll();
      delayMillis = 500;
      await new BundleCatalogue({ bundles: [httpBundle(1_000_000, 100)], limits, forcedRefreshCooldownMillis: 0, log }).refreshAll();
      expect(warnings).toEqual([
        `manifest_fetch_failed:${RegistryErrorCode.ManifestUnreachable}`,
        `manifest_fetch_failed:${RegistryErrorCode.ManifestInvalid}`,
        `manifest_fetch_failed:${RegistryErrorCode.ManifestUnreachable}`,
      ]);
    });
  });
});
