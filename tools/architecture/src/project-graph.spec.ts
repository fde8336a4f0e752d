import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The project graph as `nx graph` draws it: the MCP client is a project of its own (ADR 0018), the agent
 * CLI uses it, and no library does (spec imports count: Nx draws an edge for them too). Tooling (the
 * benches) may.
 */
const ROOT = path.join(__dirname, '../../..');

interface ProjectGraph {
  nodes: Record<string, { type: 'app' | 'lib' | 'e2e'; data: { root: string; tags?: string[] } }>;
  dependencies: Record<string, Array<{ target: string }>>;
}

describe('the Nx project graph', () => {
  let graph: ProjectGraph;

  beforeAll(() => {
    const dir = mkdtempSync(path.join(tmpdir(), 'project-graph-'));
    try {
      const file = path.join(dir, 'graph.json');
      execFileSync('npx', ['nx', 'graph', `--file=${file}`], {
        cwd: ROOT,
        stdio: 'ignore',
        env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      });
      graph = (JSON.parse(readFileSync(file, 'utf8')) as { graph: ProjectGraph }).graph;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('has the MCP client library, tagged for its layer and shared by both deployables', () => {
    expect(graph.nodes['mcp-client']).toMatchObject({
      type: 'lib',
      data: { root: 'libs/mcp-client', tags: ['type:client', 'scope:shared'] },
    });
  });

  it('lets the agent CLI, and no library, depend on it', () => {
    const dependents = Object.entries(graph.dependencies)
      .filter(([, dependencies]) => dependencies.some((d) => d.target === 'mcp-client'))
      .map(([project]) => project);
    expect(dependents).toContain('agent-cli');
    expect(dependents.filter((project) => graph.nodes[project].data.root.startsWith('libs/'))).toEqual([]);
  });
});
