#!/usr/bin/env node
// Start-up time of built agent CLIs: wall time of `node <main.js> --version`, the runs alternating between
// the builds so both see the same machine; medians. Usage:
//   node tools/bench/agent-cli-startup/run.mjs <main.js> [<other main.js> ...] [--runs 30]
// e.g. this checkout's dist/apps/agent-cli/main.js against an older build in a git worktree.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

import { SMOKE, smokeRan } from '../smoke.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: SMOKE ? '1' : '30' }, smoke: { type: 'boolean', default: false } },
});
// --smoke times this checkout's build alone
if (SMOKE && positionals.length === 0) positionals.push('dist/apps/agent-cli/main.js');
if (positionals.length === 0) {
  console.error('usage: run.mjs <main.js> [<other main.js> ...] [--runs 30]');
  process.exit(2);
}
const times = new Map(positionals.map((file) => [file, []]));
for (let round = 0; round < Number(values.runs); round++) {
  const order = round % 2 === 0 ? positionals : [...positionals].reverse();
  for (const file of order) {
    const started = process.hrtime.bigint();
    const run = spawnSync(process.execPath, [file, '--version'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${file} --version exited with ${run.status}: ${run.stderr}`);
    times.get(file).push(Number(process.hrtime.bigint() - started) / 1e6);
  }
}
const medianOf = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const base = medianOf(times.get(positionals[0]));
for (const [file, ms] of times) {
  const median = medianOf(ms);
  console.log(
    `${file}: median ${median.toFixed(0)} ms, min ${Math.min(...ms).toFixed(0)} ms (${ms.length} runs), ${(median / base).toFixed(2)}x of the first`,
  );
}
smokeRan('agent-cli-startup');
