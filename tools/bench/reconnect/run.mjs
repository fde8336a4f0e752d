#!/usr/bin/env node
// Builds reconnect-bench.ts (the agent's client manager, TypeScript) with esbuild and runs it; see its header.
// Usage: node tools/bench/reconnect/run.mjs [rounds]
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const outfile = path.join(root, 'dist/bench/reconnect/reconnect-bench.js');
buildSync({
  entryPoints: [path.join(root, 'tools/bench/reconnect/reconnect-bench.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  packages: 'external',
  tsconfig: path.join(root, 'apps/agent-cli/tsconfig.app.json'),
  outfile,
  logLevel: 'warning',
});
const run = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
