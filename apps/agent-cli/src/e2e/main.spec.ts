import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

const MAIN = path.join(REPO_ROOT, 'dist/apps/agent-cli/main.js');
/** A synchronous child blocks Jest's own test timeout; this bounds it instead. */
const SYNC_TIMEOUT_MS = 30_000;
const RECORD_MODULE_LOADS = path.join(__dirname, '../test-support/record-module-loads.cjs');

describe('agent-cli process (built dist/apps/agent-cli/main.js)', () => {
  it('prints help with node and nothing else on stdout', () => {
    const stdout = execFileSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8', timeout: SYNC_TIMEOUT_MS });
    expect(stdout.startsWith('agent-cli - ')).toBe(true);
    expect(stdout).toContain('Exit codes:');
  });

  it('runs as "npx agent-cli" through the root package bin', () => {
    const result = spawnSync('npx', ['--no-install', 'agent-cli', '--version'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: SYNC_TIMEOUT_MS,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('calls itself by the bin it was started as: "npx agent-cli" says agent-cli, the installed toolmesh-agent says toolmesh-agent', () => {
    const viaNpx = spawnSync('npx', ['--no-install', 'agent-cli', 'frobnicate'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: SYNC_TIMEOUT_MS,
    });
    expect(viaNpx.stderr).toBe('agent-cli: unknown command "frobnicate"\nRun "agent-cli --help" for usage.\n');
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-bin-'));
    try {
      // npm installs a package's bin as a symlink to its script, so the name survives in argv[1].
      const bin = path.join(dir, 'toolmesh-agent');
      symlinkSync(MAIN, bin);
      const help = spawnSync(process.execPath, [bin, 'run', '--help'], { encoding: 'utf8', timeout: SYNC_TIMEOUT_MS });
      expect(help.stdout).toMatch(/^Usage: toolmesh-agent run "<task>"/);
      const usage = spawnSync(process.execPath, [bin, 'run'], { encoding: 'utf8', timeout: SYNC_TIMEOUT_MS, cwd: dir });
      expect(usage.stderr).toContain('toolmesh-agent run: expected the task, e.g. toolmesh-agent run "list the TODOs in src"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads neither express nor winston for --version (the CLI takes only the client face of transport-http)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-loads-'));
    try {
      const record = path.join(dir, 'loaded.json');
      const result = spawnSync(process.execPath, ['--require', RECORD_MODULE_LOADS, MAIN, '--version'], {
        encoding: 'utf8',
        timeout: SYNC_TIMEOUT_MS,
        env: { ...process.env, MODULE_LOAD_RECORD: record },
      });
      expect(result.status).toBe(0);
      const loaded = JSON.parse(readFileSync(record, 'utf8')) as string[];
      expect(loaded).toContain(MAIN); // the record holds the bundle's own loads
      expect(loaded.filter((file) => /[\\/]node_modules[\\/](express|winston|winston-transport)[\\/]/.test(file))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits with 2 on a usage error', () => {
    const result = spawnSync(process.execPath, [MAIN, '--bogus'], { encoding: 'utf8', timeout: SYNC_TIMEOUT_MS });
    expect(result.status).toBe(2);
  });
});
