// The TypeScript benchmarks (they drive the agent CLI's MCP layer through apps/agent-cli/src/bench-seam.ts)
// are bundled with esbuild into dist/bench/ and run there, with the app's tsconfig for the @toolmesh paths.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds `entry` (relative to the repository root), runs it with `args` and exits with its status. */
export function runTypeScriptBench(entry, args, nodeOptions = []) {
  const outfile = path.join(root, 'dist/bench', entry.replace(/^tools\/bench\//, '').replace(/\.ts$/, '.js'));
  buildSync({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    tsconfig: path.join(root, 'apps/agent-cli/tsconfig.app.json'),
    outfile,
    logLevel: 'warning',
  });
  const run = spawnSync(process.execPath, [...nodeOptions, outfile, ...args], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
