import { SchemaCompiler, SchemaErrorCode } from '@toolmesh/protocol';

import { RegistryErrorCode } from '../errors';
import type { RouteSnapshot } from '../model/route-snapshot';
import { buildRouteSnapshot } from './build-route-snapshot';

const route = { token: 'core' };
const MAX_TOOLS = 2_000;
const inService = (tools: Array<Record<string, unknown>>) => [{ serviceDomain: 'http://tools.internal', manifest: { tools } }];
const manifestOf = (tools: Array<{ name: string; maxLength: number }>) =>
  inService(
    tools.map(({ name, maxLength }) => ({
      name,
      endpoint: `/tools/${name}`,
      inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength } } },
    })),
  );

async function snapshotOf(manifests: ReturnType<typeof inService>, previous?: RouteSnapshot): Promise<RouteSnapshot> {
  const result = await buildRouteSnapshot(route, manifests, 'remote', 0, { maxTools: MAX_TOOLS }, previous);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.snapshot;
}
const build = (tools: Array<{ name: string; maxLength: number }>, previous?: RouteSnapshot) => snapshotOf(manifestOf(tools), previous);

describe('buildRouteSnapshot schemas (SPEC N5)', () => {
  const tool = (name: string, inputSchema: Record<string, unknown>) => ({ name, endpoint: `/tools/${name}`, inputSchema });

  it('compiles each inputSchema, so a call never compiles one', async () => {
    const { tools } = await snapshotOf(inService([tool('echo', { type: 'object', required: ['text'] })]));
    expect(tools[0].inputValidator.check({}, 'arguments')).toEqual({ ok: false, problems: ['arguments.text is required'] });
  });

  it.each([
    [
      'a back-reference',
      { type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } },
      SchemaErrorCode.UnsupportedPattern,
    ],
    ['a lookahead in patternProperties', { type: 'object', patternProperties: { '^(?!x)': {} } }, SchemaErrorCode.UnsupportedPattern],
    [
      'a $ref to another document',
      { type: 'object', properties: { s: { $ref: 'https://schemas.example.com/s.json' } } },
      SchemaErrorCode.UnresolvedRef,
    ],
    ['an invalid schema', { type: 'object', properties: { s: { type: 'text' } } }, SchemaErrorCode.Invalid],
  ])('refuses a tool whose inputSchema has %s and serves the rest', async (_, inputSchema, code) => {
    const snapshot = await snapshotOf(inService([tool('bad', inputSchema), tool('good', { type: 'object' })]));
    expect(snapshot.tools.map((t) => t.name)).toEqual(['good']);
    expect(snapshot.refusedTools).toEqual([{ name: 'bad', code, message: expect.stringMatching(/^inputSchema: /) }]);
  });

  it('leaves the event loop to others while it compiles many new schemas', async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => ({ name: `t${i}`, maxLength: i + 1 }));
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    try {
      expect((await build(many)).tools).toHaveLength(2_000);
    } finally {
      clearInterval(ticker);
    }
    // About 0.6 s of compiling in 10 ms slices: timers ran in between (a synchronous compile lets none run).
    expect(turns).toBeGreaterThan(5);
  });
});

describe('buildRouteSnapshot schema compiling across refreshes', () => {
  const tools = Array.from({ length: 100 }, (_, i) => ({ name: `t${i}`, maxLength: i + 1 }));

  it('compiles only what changed since the previous snapshot of the route', async () => {
    const first = await build(tools);
    expect(first.schemas.size).toBe(100);
    const unchanged = await build(tools, first);
    expect(unchanged.schemas).toBe(first.schemas);
    expect(unchanged.schemas.size).toBe(100);
    expect(unchanged.tools[7].inputValidator).toBe(first.tools[7].inputValidator);
    const oneChanged = await build(
      tools.map((tool, i) => (i === 3 ? { ...tool, maxLength: 999 } : tool)),
      unchanged,
    );
    expect(oneChanged.schemas.size).toBe(101);
    expect(oneChanged.tools[3].inputValidator.check({ text: 'x'.repeat(500) }).ok).toBe(true);
  });

  it('starts a new compiler once the old one holds more than twice what the route serves', async () => {
    let snapshot = await build(tools);
    const firstCompiler = snapshot.schemas;
    for (let round = 1; round <= 2; round++)
      snapshot = await build(
        tools.map((tool) => ({ ...tool, maxLength: tool.maxLength + round * 1000 })),
        snapshot,
      );
    expect(snapshot.schemas).toBe(firstCompiler); // 300 compiled for 100 served: the next build starts over
    snapshot = await build(
      tools.map((tool) => ({ ...tool, maxLength: tool.maxLength + 3000 })),
      snapshot,
    );
    expect(snapshot.schemas).not.toBe(firstCompiler);
    expect(snapshot.schemas.size).toBe(100);
  });
});

describe('buildRouteSnapshot bounds, checked before the work they bound', () => {
  const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }) => ({
    name,
    endpoint: `/tools/${name}`,
    inputSchema,
  });
  afterEach(() => jest.restoreAllMocks());

  it('refuses a route offering more than maxTools tools before validating or compiling any of them', async () => {
    const compile = jest.spyOn(SchemaCompiler.prototype, 'compile');
    // The third tool is invalid too: a count over the limit is found first, and nothing else is looked at.
    const manifests = [
      { serviceDomain: 'http://a.internal', manifest: { tools: [tool('a1'), tool('a2')] } },
      { serviceDomain: 'http://b.internal', manifest: { tools: [{ name: 'no schema' }] } },
    ];
    const result = await buildRouteSnapshot(route, manifests, 'remote', 0, { maxTools: 2 });
    expect(result).toEqual({
      ok: false,
      code: RegistryErrorCode.ManifestTooLarge,
      problems: ["the route's manifests offer 3 tools, over the limit of 2"],
    });
    expect(compile).not.toHaveBeenCalled();
  });

  it('serves a route of exactly maxTools tools', async () => {
    const result = await buildRouteSnapshot(route, inService([tool('a1'), tool('a2')]), 'remote', 0, { maxTools: 2 });
    expect(result.ok && result.snapshot.tools.map((t) => t.name)).toEqual(['a1', 'a2']);
  });

  it('refuses a tool nested past the parser limit on its own, keeps it out of the stored manifests, and serves the rest', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 5_000; level++) deep = { type: 'object', properties: { a: deep } };
    const snapshot = await snapshotOf(inService([tool('deep', deep), tool('shallow')]));
    expect(snapshot.tools.map((t) => t.name)).toEqual(['shallow']);
    expect(snapshot.refusedTools).toEqual([
      { name: 'deep', code: RegistryErrorCode.ToolTooDeep, message: "the tool's definition is nested deeper than 253 levels" },
    ]);
    expect((snapshot.manifests[0].manifest as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(['shallow']);
  });

  describe('maxSchemaNodes (issue 43, item 2)', () => {
    /** An inputSchema of 3 + 3n JSON values: itself, its type and properties, and per property its schema, type and pattern. */
    const patterned = (n: number) => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string', pattern: `^v${i}-` }])),
    });
    const limits = { maxTools: MAX_TOOLS, maxSchemaNodes: 303 };

    it('refuses a tool whose schemas hold more JSON values than the limit on its own, before compiling it, and serves the rest', async () => {
      const wide = { ...tool('wide', patterned(100)), outputSchema: { type: 'object' } };
      const result = await buildRouteSnapshot(route, inService([wide, tool('narrow', patterned(100))]), 'remote', 0, limits);
      if (!result.ok) throw new Error(result.problems.join('; '));
      const snapshot = result.snapshot;
      expect(snapshot.tools.map((t) => t.name)).toEqual(['narrow']);
      expect(snapshot.refusedTools).toEqual([
        {
          name: 'wide',
          code: RegistryErrorCode.SchemaTooLarge,
          message: "the tool's inputSchema and outputSchema hold more than 303 JSON values (mcp.catalogue.maxSchemaNodes)",
        },
      ]);
      expect(snapshot.schemas.size).toBe(1);
    });

    it('refuses the 10,000 patterned properties of the attack at the default limit in a fraction of a second', async () => {
      const started = process.cpuUsage();
      const snapshot = await snapshotOf(inService([tool('attack', patterned(10_000)), tool('neighbour')]));
      expect(process.cpuUsage(started).user / 1e6).toBeLessThan(2);
      expect(snapshot.tools.map((t) => t.name)).toEqual(['neighbour']);
      expect(snapshot.refusedTools).toEqual([expect.objectContaining({ name: 'attack', code: RegistryErrorCode.SchemaTooLarge })]);
    });
  });
});
