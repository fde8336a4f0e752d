import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Every TypeScript and JavaScript file under apps/, libs/ and tools/ is linted: each Nx project has the lint
 * target the ESLint plugin infers (`eslint .` in its root), and the files ESLint sees there, together, are
 * every such file git tracks. A file outside every project, or one a config ignores, fails here by name.
 */
const ROOT = path.join(__dirname, '../../..');
const LINTED_EXTENSIONS = /\.(ts|js|mjs|cjs)$/;

interface ProjectNode {
  data: { root: string; targets?: Record<string, { options?: { cwd?: string; command?: string } }> };
}

function projectNodes(): Record<string, ProjectNode> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lint-coverage-'));
  try {
    const file = path.join(dir, 'graph.json');
    execFileSync('npx', ['nx', 'graph', `--file=${file}`], { cwd: ROOT, stdio: 'ignore' });
    return (JSON.parse(readFileSync(file, 'utf8')) as { graph: { nodes: Record<string, ProjectNode> } }).graph.nodes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function lintedFiles(projectRoots: string[]): string[] {
  const output = execFileSync(process.execPath, [path.join(__dirname, 'linted-files.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(projectRoots.map((root) => path.join(ROOT, root))),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return (JSON.parse(output) as string[]).map((file) => path.relative(ROOT, file));
}

const trackedSources = () =>
  execFileSync('git', ['ls-files', 'apps', 'libs', 'tools'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => LINTED_EXTENSIONS.test(file));

describe('lint coverage', () => {
  let nodes: Record<string, ProjectNode>;

  beforeAll(() => {
    nodes = projectNodes();
  }, 120_000);

  it('gives every project a lint target that runs ESLint over its whole root', () => {
    const lintTargets = Object.entries(nodes).map(([name, node]) => [name, node.data.targets?.lint?.options] as const);
    expect(lintTargets.filter(([, options]) => options?.command !== 'eslint .').map(([name]) => name)).toEqual([]);
    for (const [name, options] of lintTargets) expect([name, options?.cwd]).toEqual([name, nodes[name].data.root]);
  });

  it('lints every TypeScript and JavaScript file git tracks under apps/, libs/ and tools/', () => {
    const linted = new Set(lintedFiles(Object.values(nodes).map((node) => node.data.root)));
    expect(linted.size).toBeGreaterThan(0);
    expect(trackedSources().filter((file) => !linted.has(file))).toEqual([]);
  }, 300_000);
});
