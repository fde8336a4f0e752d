import { buildRouteSnapshot, type RouteSnapshot } from './route-snapshot';

const route = { token: 'core' };
const manifestOf = (tools: Array<{ name: string; maxLength: number }>) => [
  {
    serviceDomain: 'http://tools.internal',
    manifest: { tools: tools.map(({ name, maxLength }) => ({ name, endpoint: `/tools/${name}`, inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength } } } })) },
  },
];

function build(tools: Array<{ name: string; maxLength: number }>, previous?: RouteSnapshot): RouteSnapshot {
  const result = buildRouteSnapshot(route, manifestOf(tools), 'remote', 0, previous);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.snapshot;
}

describe('buildRouteSnapshot schema compiling', () => {
  const tools = Array.from({ length: 100 }, (_, i) => ({ name: `t${i}`, maxLength: i + 1 }));

  it('compiles only what changed since the previous snapshot of the route', () => {
    const first = build(tools);
    expect(first.schemas.size).toBe(100);
    const unchanged = build(tools, first);
    expect(unchanged.schemas).toBe(first.schemas);
    expect(unchanged.schemas.size).toBe(100);
    expect(unchanged.tools[7].inputValidator).toBe(first.tools[7].inputValidator);
    const oneChanged = build(tools.map((tool, i) => (i === 3 ? { ...tool, maxLength: 999 } : tool)), unchanged);
    expect(oneChanged.schemas.size).toBe(101);
    expect(oneChanged.tools[3].inputValidator.check({ text: 'x'.repeat(500) }).ok).toBe(true);
  });

  it('starts a new compiler once the old one holds more than twice what the route serves', () => {
    let snapshot = build(tools);
    const firstCompiler = snapshot.schemas;
    for (let round = 1; round <= 2; round++) snapshot = build(tools.map((tool) => ({ ...tool, maxLength: tool.maxLength + round * 1000 })), snapshot);
    expect(snapshot.schemas).toBe(firstCompiler); // 300 compiled for 100 served: the next build starts over
    snapshot = build(tools.map((tool) => ({ ...tool, maxLength: tool.maxLength + 3000 })), snapshot);
    expect(snapshot.schemas).not.toBe(firstCompiler);
    expect(snapshot.schemas.size).toBe(100);
  });
});
