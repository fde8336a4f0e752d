import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * What a pull request's CI runs (`npm test -- --affected`, ADR 0017) is what the change can break. In a
 * temporary git copy of this checkout, each case commits one synthetic change and asks npm test's runner
 * which phases it would run (`--dry-run`) between the commit before and that commit, as the workflow asks
 * it between the merge base and the head (NX_BASE, NX_HEAD): the projects of the Nx run, and the smoke
 * tests of which apps (tools/smoke/src/<app>/). A fresh copy also means a fresh project graph: nothing
 * cached from this checkout answers.
 */
const ROOT = path.join(__dirname, '../../..');
const NX_ENV = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

const cases: Array<{ change: string; selects: string[]; spares: string[]; smoke: string[] }> = [
  {
    change: 'libs/rewake-bridge/src/index.ts',
    selects: ['rewake-bridge', 'agent-cli'],
    spares: ['gateway', 'registry', 'protocol'],
    smoke: ['agent-cli'],
  },
  {
    change: 'libs/protocol/src/index.ts',
    selects: ['protocol', 'gateway', 'agent-cli', 'registry'],
    spares: ['test-peers', 'conformance'],
    smoke: ['agent-cli', 'gateway'],
  },
  // docs/errors.md: every error module's test reads it (tools/test/documented-codes.ts)
  {
    change: 'docs/errors.md',
    selects: ['gateway', 'agent-cli', 'protocol', 'registry', 'transport-http', 'transport-stdio', 'rewake-bridge', 'architecture'],
    spares: ['test-peers', 'conformance'],
    smoke: ['agent-cli', 'gateway'],
  },
  { change: 'docs/agent-cli.md', selects: ['agent-cli', 'architecture'], spares: ['gateway', 'protocol'], smoke: ['agent-cli'] },
  {
    change: 'docs/configuration.md',
    selects: ['gateway', 'deploy-tests', 'architecture'],
    spares: ['protocol', 'rewake-bridge'],
    smoke: ['agent-cli', 'gateway'], // the agent CLI's e2e specs run the gateway
  },
  // the agent CLI's e2e specs, the deployment tests and the benchmarks run the built gateway
  {
    change: 'apps/gateway/src/main.ts',
    selects: ['gateway', 'agent-cli', 'deploy-tests', 'bench'],
    spares: ['protocol', 'registry', 'rewake-bridge'],
    smoke: ['agent-cli', 'gateway'],
  },
  {
    change: 'tools/conformance/conformance.mjs',
    selects: ['conformance', 'gateway', 'agent-cli'],
    spares: ['protocol', 'registry'],
    smoke: ['agent-cli', 'gateway'],
  },
  // a change to the smoke tests' own configuration runs all of them, and nothing of the apps
  { change: 'tools/smoke/jest.smoke.config.js', selects: ['smoke'], spares: ['gateway', 'agent-cli'], smoke: ['agent-cli', 'gateway'] },
];

/** The phases npm test's runner prints with --dry-run: the Nx run's projects, the smoke suites' apps, whether the benchmarks run. */
function phasesOf(dryRun: string) {
  const lines = dryRun.trim().split('\n');
  const projects = /--projects=(\S*)/.exec(lines[0])?.[1].split(',') ?? [];
  const smokeLine = lines.find((line) => line.includes('jest.smoke.config.js')) ?? '';
  const smoke = [...smokeLine.matchAll(/tools\/smoke\/src\/([\w-]+)\//g)].map((match) => match[1]);
  const bench = lines.some((line) => line.includes('jest.bench.config.js'));
  return { projects, smoke, bench };
}

describe('affected selection', () => {
  let copy: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=affected', '-c', 'user.email=affected@localhost', ...args], {
      cwd: copy,
      encoding: 'utf8',
    }).trim();

  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'affected-selection-'));
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).split('\0');
    for (const file of files.filter((name) => name && existsSync(path.join(ROOT, name))))
      cpSync(path.join(ROOT, file), path.join(copy, file));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
  }, 120_000);

  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it.each(cases)(
    'a change in $change selects $selects, spares $spares and runs the smoke tests of $smoke',
    ({ change, selects, spares, smoke }) => {
      const base = git('rev-parse', 'HEAD');
      appendFileSync(path.join(copy, change), change.endsWith('.md') ? '\nA synthetic change.\n' : '\n// a synthetic change\n');
      git('commit', '-qam', `change ${change}`);
      const dryRun = execFileSync(process.execPath, ['tools/test/run-all.js', '--affected', '--dry-run'], {
        cwd: copy,
        env: { ...NX_ENV, NX_BASE: base, NX_HEAD: 'HEAD' },
        encoding: 'utf8',
      });
      const phases = phasesOf(dryRun);
      expect(phases.projects).toEqual(expect.arrayContaining(selects));
      expect(phases.projects.filter((project) => spares.includes(project))).toEqual([]);
      expect(phases.smoke).toEqual(smoke);
      expect(phases.bench).toBe(phases.projects.includes('bench'));
    },
    180_000,
  );

  it('puts every smoke test in the folder of the app whose commands it runs, or none would select it', () => {
    const apps = readdirSync(path.join(ROOT, 'apps')).map(
      (dir) => (JSON.parse(readFileSync(path.join(ROOT, 'apps', dir, 'project.json'), 'utf8')) as { name: string }).name,
    );
    const specs = readdirSync(path.join(ROOT, 'tools/smoke/src'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.spec.ts'),
    );
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) expect(apps).toContain(spec.split(path.sep)[0]);
  });
});
