#!/usr/bin/env node
// Instructions per tools/call, counted by valgrind's callgrind rather than timed: the same figure however
// busy the machine is (cpu-per-call.mjs measures CPU time, whose paired rounds still ranged from 0.55x to
// 1.74x with other work on the two cores). Each server runs under callgrind twice, with the same warm-up
// calls, then once with no more calls and once with `--calls` more; the difference of the two totals,
// divided by the calls, is what one call costs once warm: start-up, warm-up and shutdown cancel out.
// Everything is counted, V8's compiler and GC threads included, as CPU time would be.
//   node tools/bench/gateway/instructions-per-call.mjs [--calls 2000] [--warmup 2000] [--compare <main.js>]...
// (after `npx nx build gateway`; needs valgrind: apt-get install -y valgrind; about 2 minutes per server).
// `--compare` adds another gateway build (a copy of an earlier dist inside the repo, so that it finds
// node_modules), as in cpu-per-call.mjs.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { SMOKE, smokeRan } from '../smoke.mjs';
import { callRequest, root, startGateway, startMinimalProxy, startToolService, stopAll, stopProcess } from './processes.mjs';

const { values: options } = parseArgs({
  options: {
    calls: { type: 'string', default: SMOKE ? '5' : '2000' },
    warmup: { type: 'string', default: SMOKE ? '5' : '2000' },
    concurrency: { type: 'string', default: '1' },
    'node-options': { type: 'string', default: '--single-threaded' },
    compare: { type: 'string', multiple: true, default: [] },
    smoke: { type: 'boolean', default: false },
  },
});
const CALLS = Number(options.calls);
const WARMUP = Number(options.warmup);
const CONCURRENCY = Number(options.concurrency);
const call = callRequest('legacy');
const nodeOptions = options['node-options'].split(' ').filter(Boolean);

/** `count` calls, `CONCURRENCY` at a time, each checked. */
async function send(url, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const response = await fetch(url, { method: 'POST', headers: call.headers, body: call.body });
      const text = await response.text();
      if (!response.ok || !text.includes('hello')) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The total instructions callgrind counted in a run of the server `start` starts, after `calls` calls beyond the warm-up. */
async function countedRun(start, calls) {
  const dir = mkdtempSync(path.join(tmpdir(), 'callgrind-'));
  const launcher = ['valgrind', '-q', '--tool=callgrind', `--callgrind-out-file=${dir}/out.%p`, '--dump-instr=no', '--compress-strings=no'];
  const server = await start(launcher);
  await send(server.url, WARMUP + calls);
  await stopProcess(server.pid);
  const [file] = readdirSync(dir);
  const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(path.join(dir, file), 'utf8'));
  if (!totals) throw new Error(`no totals in ${dir}/${file}`);
  return Number(totals[1]);
}

const toolService = await startToolService(10);
const targets = [
  { name: 'gateway', start: (launcher) => startGateway(toolService.url, { launcher, nodeOptions }) },
  ...options.compare.map((main) => ({
    name: path.relative(root, path.resolve(main)),
    start: (launcher) => startGateway(toolService.url, { main: path.resolve(main), launcher, nodeOptions }),
  })),
  // Under --smoke the gateway alone: four start-ups under callgrind would take minutes of the test run.
  ...(SMOKE ? [] : [{ name: 'minimal proxy', start: (launcher) => startMinimalProxy(toolService.url, { launcher, nodeOptions }) }]),
];
try {
  console.log(`callgrind, ${WARMUP} warm-up calls, then ${CALLS} counted, ${CONCURRENCY} at a time, node ${process.version}\n`);
  for (const target of targets) {
    const base = await countedRun(target.start, 0);
    const withCalls = await countedRun(target.start, CALLS);
    target.perCall = (withCalls - base) / CALLS;
    console.log(`${target.name.padEnd(28)} ${Math.round(target.perCall).toLocaleString('en').padStart(10)} instructions/call`);
  }
  const [gateway, proxy] = [targets[0], targets.at(-1)];
  console.log(`\n${'ratios'.padEnd(28)} / minimal proxy   / gateway`);
  for (const target of targets) {
    console.log(
      `${target.name.padEnd(28)} ${(target.perCall / proxy.perCall).toFixed(2).padStart(12)}x ${(target.perCall / gateway.perCall).toFixed(3).padStart(10)}`,
    );
  }
} finally {
  stopAll();
}
smokeRan('instructions-per-call');
