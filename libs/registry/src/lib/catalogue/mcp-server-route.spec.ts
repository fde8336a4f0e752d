import { canonicalDefinition, DEFINITION_HASH_META_KEY, definitionHash } from '@toolmesh/protocol';

import { buildRouteSnapshot } from './build-route-snapshot';
import { decodeRouteSnapshot, encodeRouteSnapshot } from './stored-route';

const SERVER = 'http://127.0.0.1:9/mcp';
const listed = {
  tools: [
    {
      name: 'echo',
      description: 'Echoes',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    },
    { name: 'get/image', inputSchema: { type: 'object' } },
    { name: 'no-schema', inputSchema: { type: 'string' } },
    {
      name: 'structured',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
      _meta: { 'example.com/owner': 'team-a', 'io.toolmesh/annotations': { claimedBy: 'manifest' } },
    },
  ],
};
/** The marker of a tool whose annotations are the server's claims (docs/gateway.md, "MCP servers as a tool source"). */
const CLAIM = 'io.toolmesh/annotations';
const EVERYTHING_CLAIM = { claimedBy: 'mcp-server', bundle: 'everything' };
const service = { serviceDomain: SERVER, manifest: listed, servedFrom: SERVER, mcpServer: true };

describe('an MCP server route in the catalogue model (issue 28)', () => {
  it('serves the server tools under the prefix, each with its name on the server, the rest refused one by one', async () => {
    const build = await buildRouteSnapshot({ token: 'everything', namePrefix: 'ev_' }, [service], 'remote', 0, { maxTools: 100 });
    if (!build.ok) throw new Error(build.problems.join('; '));
    expect(build.snapshot.tools.map(({ name, target, endpoint }) => ({ name, target, endpoint: endpoint.href }))).toEqual([
      { name: 'ev_echo', target: { kind: 'mcp', upstreamTool: 'echo' }, endpoint: SERVER },
      { name: 'ev_structured', target: { kind: 'mcp', upstreamTool: 'structured' }, endpoint: SERVER },
    ]);
    // The server's claims pass as they are, marked as its claims in _meta, with the bundle's name, and the
    // hash of the definition as served (issue 46).
    const echo = { ...listed.tools[0], name: 'ev_echo' };
    const echoHash = definitionHash(canonicalDefinition(echo));
    expect(build.snapshot.tools[0].publicTool).toEqual({
      ...echo,
      _meta: { [CLAIM]: EVERYTHING_CLAIM, [DEFINITION_HASH_META_KEY]: echoHash },
    });
    // The server's own _meta keys stay; under our keys, the gateway's marker and hash replace what the server put there.
    expect(build.snapshot.tools[1].publicTool._meta).toEqual({
      'example.com/owner': 'team-a',
      [CLAIM]: EVERYTHING_CLAIM,
      [DEFINITION_HASH_META_KEY]: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(build.snapshot.refusedTools).toEqual([
      { name: 'ev_get/image', code: 'registry.upstream_tool_refused', message: expect.stringContaining('name') },
      { name: 'ev_no-schema', code: 'registry.upstream_tool_refused', message: expect.stringContaining('inputSchema') },
    ]);
  });

  it('goes through the shared cache as a listing does: rebuilt the same, still forwarded', async () => {
    const build = await buildRouteSnapshot({ token: 'everything' }, [service], 'remote', 0, { maxTools: 100 });
    if (!build.ok) throw new Error(build.problems.join('; '));
    const stored = JSON.parse(JSON.stringify(encodeRouteSnapshot('everything', build.snapshot))) as unknown;
    const decoded = await decodeRouteSnapshot(stored, { token: 'everything' }, { maxTools: 100 });
    if (!decoded.ok) throw new Error(decoded.problems.join('; '));
    expect(decoded.snapshot.source).toBe('redis');
    expect(decoded.snapshot.tools.map(({ name, target, publicTool }) => ({ name, target, claim: publicTool._meta }))).toEqual([
      {
        name: 'echo',
        target: { kind: 'mcp', upstreamTool: 'echo' },
        claim: { [CLAIM]: EVERYTHING_CLAIM, [DEFINITION_HASH_META_KEY]: definitionHash(canonicalDefinition(listed.tools[0])) },
      },
      {
        name: 'structured',
        target: { kind: 'mcp', upstreamTool: 'structured' },
        claim: expect.objectContaining({ [CLAIM]: EVERYTHING_CLAIM }),
      },
    ]);
  });

  it('puts the capabilities a tool needs on its target, through the shared cache too (issue 44)', async () => {
    const manifest = { ...listed, requiredCapabilities: { structured: ['sampling', 'roots'] } };
    const build = await buildRouteSnapshot({ token: 'everything', namePrefix: 'ev_' }, [{ ...service, manifest }], 'remote', 0, {
      maxTools: 100,
    });
    if (!build.ok) throw new Error(build.problems.join('; '));
    const targets = (snapshot: typeof build.snapshot) => snapshot.tools.map(({ target }) => target);
    const expected = [
      { kind: 'mcp', upstreamTool: 'echo' },
      { kind: 'mcp', upstreamTool: 'structured', requiredCapabilities: ['sampling', 'roots'] },
    ];
    expect(targets(build.snapshot)).toEqual(expected);
    const stored = JSON.parse(JSON.stringify(encodeRouteSnapshot('everything', build.snapshot))) as unknown;
    const decoded = await decodeRouteSnapshot(stored, { token: 'everything', namePrefix: 'ev_' }, { maxTools: 100 });
    if (!decoded.ok) throw new Error(decoded.problems.join('; '));
    expect(targets(decoded.snapshot)).toEqual(expected);
  });

  it('refuses a listing whose requiredCapabilities are not lists of names with registry.mcp_server_invalid', async () => {
    const manifest = { ...listed, requiredCapabilities: { echo: 'sampling' } };
    expect(await buildRouteSnapshot({ token: 'everything' }, [{ ...service, manifest }], 'remote', 0, { maxTools: 100 })).toMatchObject({
      ok: false,
      code: 'registry.mcp_server_invalid',
      problems: [expect.stringContaining('requiredCapabilities')],
    });
  });

  it('refuses a listing without a tools array with registry.mcp_server_invalid', async () => {
    expect(
      await buildRouteSnapshot({ token: 'everything' }, [{ ...service, manifest: { tool: [] } }], 'remote', 0, { maxTools: 100 }),
    ).toMatchObject({
      ok: false,
      code: 'registry.mcp_server_invalid',
    });
  });
});
