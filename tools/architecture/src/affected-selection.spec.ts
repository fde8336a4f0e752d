import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * What a pull request's CI runs (`nx affected`, ADR 0017) is what the change can break. In a temporary git
 * copy of this checkout, each case commits one synthetic change and asks Nx which projects it affects
 * between the commit before and that commit, as the workflow asks it between the merge base and the head.
 * A fresh copy also means a fresh project graph: nothing cached from this checkout answers.
 */
const ROOT = path.join(__dirname, '../../..');
const NX_ENV = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

const cases: Array<{ change: string; selects: string[]; spares: string[] }> = [
  { change: 'libs/rewake-bridge/src/index.ts', selects: ['rewake-bridge', 'agent-cli'], spares: ['gateway', 'registry', 'protocol'] },
  {
    change: 'libs/protocol/src/index.ts',
    selects: ['protocol', 'gateway', 'agent-cli', 'registry'],
    spares: ['test-peers', 'conformance'],
  },
  // docs/errors.md: every error module's test reads it (tools/test/documented-codes.ts)
  {
    change: 'docs/errors.md',
    selects: ['gateway', 'agent-cli', 'protocol', 'registry', 'transport-http', 'transport-stdio', 'rewake-bridge', 'architecture'],
    spares: ['test-peers', 'conformance'],
  },
  { change: 'docs/agent-cli.md', selects: ['agent-cli', 'architecture'], spares: ['gateway', 'protocol'] },
  { change: 'docs/configuration.md', selects: ['gateway', 'deploy-tests', 'architecture'], spares: ['protocol', 'rewake-bridge'] },
  // the agent CLI's e2e specs, the deployment tests and the benchmarks run the built gateway
  {
    change: 'apps/gateway/src/main.ts',
    selects: ['gateway', 'agent-cli', 'deploy-tests', 'bench'],
    spares: ['protocol', 'registry', 'rewake-bridge'],
  },
  { change: 'tools/conformance/conformance.mjs', selects: ['conformance', 'gateway', 'agent-cli'], spares: ['protocol', 'registry'] },
];

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
    'a change in $change selects $selects and spares $spares',
    ({ change, selects, spares }) => {
      const base = git('rev-parse', 'HEAD');
      appendFileSync(path.join(copy, change), change.endsWith('.md') ? '\nA synthetic change.\n' : '\n// a synthetic change\n');
      git('commit', '-qam', `change ${change}`);
      const output = execFileSync('npx', ['nx', 'show', 'projects', '--affected', `--base=${base}`, '--head=HEAD', '--json'], {
        cwd: copy,
        env: NX_ENV,
        encoding: 'utf8',
      });
      const affected = JSON.parse(output) as string[];
      expect(affected).toEqual(expect.arrayContaining(selects));
      expect(affected.filter((project) => spares.includes(project))).toEqual([]);
    },
    180_000,
  );
});
