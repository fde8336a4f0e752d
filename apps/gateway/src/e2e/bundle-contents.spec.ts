import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

/**
 * The gateway serves REST tool services and needs no MCP client to do it (ADR 0018): the bundle must not
 * load libs/mcp-client until an MCP server bundle (ADR 0024) needs it. esbuild's metafile of the built bundle (`metafile: true` in project.json) lists
 * every module it took in and each one's imports; a module reached from the entry only through a dynamic
 * `import()` is evaluated when that import runs, so only static imports count as loading.
 */
interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
}

const ENTRY = 'apps/gateway/src/main.ts';
const CLIENT_LIBRARY = 'libs/mcp-client/';

function staticallyLoaded(meta: Metafile): Set<string> {
  const loaded = new Set<string>();
  const pending = [ENTRY];
  for (let input = pending.pop(); input !== undefined; input = pending.pop()) {
    if (loaded.has(input)) continue;
    loaded.add(input);
    for (const { path: imported, kind, external } of meta.inputs[input]?.imports ?? []) {
      if (kind !== 'dynamic-import') pending.push(external ? `external:${imported}` : imported);
    }
  }
  return loaded;
}

describe('the built gateway bundle (dist/apps/gateway/meta.json)', () => {
  const meta = JSON.parse(readFileSync(path.join(REPO_ROOT, 'dist/apps/gateway/meta.json'), 'utf8')) as Metafile;
  const loaded = staticallyLoaded(meta);

  it('loads the libraries it serves with, so the check below is about a real module graph', () => {
    expect(meta.inputs[ENTRY]).toBeDefined();
    for (const library of ['libs/protocol/', 'libs/transport-http/', 'libs/registry/']) {
      expect([...loaded].some((input) => input.startsWith(library))).toBe(true);
    }
  });

  it('loads the OpenAPI parser only when a document is read (ADR 0019): a gateway of manifests never does', () => {
    expect(meta.inputs['libs/registry/src/lib/openapi/read-openapi-document.ts']?.imports).toContainEqual(
      expect.objectContaining({ path: '@apidevtools/swagger-parser', kind: 'dynamic-import' }),
    );
    expect(loaded.has('external:@apidevtools/swagger-parser')).toBe(false);
  });

  it('loads the MCP server connections, and the client with them, only when an MCP server bundle is used (ADR 0024)', () => {
    expect(meta.inputs['apps/gateway/src/upstreams/mcp-upstreams.ts']?.imports).toContainEqual(
      expect.objectContaining({ path: 'apps/gateway/src/upstreams/upstream-connection.ts', kind: 'dynamic-import' }),
    );
  });

  it('does not load the MCP client library, neither bundled nor left to require', () => {
    expect([...loaded].filter((input) => input.startsWith(CLIENT_LIBRARY) || input === 'external:@toolmesh/mcp-client')).toEqual([]);
  });
});
