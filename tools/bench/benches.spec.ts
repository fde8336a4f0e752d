import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Every benchmark still runs: each one's --smoke mode (smoke.mjs) goes through its whole path with the
 * smallest settings and prints only its closing line, never a figure (one from a loaded test machine would
 * be noise). What they measure is read from their full runs, by hand.
 */
const ROOT = path.join(__dirname, '../..');
const run = promisify(execFile);

const BENCHES: Array<[name: string, script: string]> = [
  ['agent-cli-client', 'tools/bench/agent-cli-client/run.mjs'],
  ['agent-cli-startup', 'tools/bench/agent-cli-startup/run.mjs'],
  ['big-catalogue', 'tools/bench/big-catalogue/run.mjs'],
  ['cancellation', 'tools/bench/cancellation/run.mjs'],
  ['catalogue', 'tools/bench/catalogue/run.mjs'],
  ['gateway', 'tools/bench/gateway/run.mjs'],
  ['gateway-search', 'tools/bench/gateway-search/run.mjs'],
  ['cpu-per-call', 'tools/bench/gateway/cpu-per-call.mjs'],
  ['gateway-auth', 'tools/bench/gateway-auth/run.mjs'],
  ['gateway-federation', 'tools/bench/gateway-federation/run.mjs'],
  ['gateway-gc', 'tools/bench/gateway-gc/run.mjs'],
  ['hostile-batches', 'tools/bench/hostile-batches/run.mjs'],
  ['hostile-mcp-replies', 'tools/bench/hostile-mcp-replies/run.mjs'],
  ['hostile-schema', 'tools/bench/hostile-schema/run.mjs'],
  ['hostile-schema-size', 'tools/bench/hostile-schema-size/run.mjs'],
  ['hostile-tool-services', 'tools/bench/hostile-tool-services/run.mjs'],
  ['hostile-yaml', 'tools/bench/hostile-yaml/run.mjs'],
  ['openapi', 'tools/bench/openapi/run.mjs'],
  ['reconnect', 'tools/bench/reconnect/run.mjs'],
  ['regexp-engines', 'tools/bench/regexp-engines/compare.mjs'],
  ['slow-clients', 'tools/bench/slow-clients/run.mjs'],
  ['tool-client', 'tools/bench/tool-client/run.mjs'],
  ['tool-search', 'tools/bench/tool-search/run.mjs'],
];

describe('benchmarks, --smoke', () => {
  it('lists a benchmark of every folder of tools/bench', () => {
    const folders = readdirSync(__dirname, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const covered = new Set(BENCHES.map(([, script]) => path.basename(path.dirname(script))));
    expect(folders.filter((folder) => !covered.has(folder))).toEqual([]);
  });

  it.each(BENCHES)(
    '%s runs and reports no figure',
    async (name, script) => {
      const { stdout } = await run(process.execPath, [script, '--smoke'], { cwd: ROOT, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });
      expect(stdout).toBe(`smoke: ${name} ran\n`);
    },
    300_000,
  );

  it('cpu-per-call --together (every target of a round measured in one window) --compare-interceptor --compare-audit runs and reports no figure', async () => {
    const script = 'tools/bench/gateway/cpu-per-call.mjs';
    const { stdout } = await run(process.execPath, [script, '--smoke', '--together', '--compare-interceptor', '--compare-audit'], {
      cwd: ROOT,
      timeout: 240_000,
    });
    expect(stdout).toBe('smoke: cpu-per-call ran\n');
  }, 300_000);

  it.each(BENCHES)('%s --help says how to run it, and starts nothing', async (_name, script) => {
    const { stdout } = await run(process.execPath, [script, '--help'], { cwd: ROOT, timeout: 30_000 });
    expect(stdout).toMatch(new RegExp(`Usage|node ${script}`));
    expect(stdout).not.toMatch(/smoke: |us\/call|listening on/);
  });
});
