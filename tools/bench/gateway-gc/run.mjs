#!/usr/bin/env node
// What a tools/call leaves to V8's garbage collector, per call: the bytes it allocates, the bytes promoted
// to the old generation (objects still reachable, or kept by an old object, at two young collections), and
// the young and full collections, all read from the gateway's own `--trace-gc-nvp` lines under a fixed
// rate of calls. Unlike CPU time these counts hardly move with the machine's load (runs agree within a few
// percent), so they show a change to a call's objects that CPU figures, which swing by 40% on a shared
// machine, cannot (docs/benchmarks.md, "Garbage per call"). Promoted bytes are the ones to watch: each is
// copied twice, then kept until a full collection.
// Beside them, the promises a call makes (and the awaits, which count as promises while a hook is on), in a
// pass of its own with a counting hook preloaded (count-promises.cjs): exact, and each promise is a turn of
// the microtask queue the call waits for (ADR 0005, fourteenth round).
// Targets: the gateway calling a REST tool (the bench tool service) and an MCP server's tool
// (tools/bench/gateway-federation/bench-mcp-server.mjs), each called by a 2025 client and a 2026-07-28 one.
// Usage (after `npx nx run gateway:build`):
//   node tools/bench/gateway-gc/run.mjs [--rate 2000 --duration 6 --warmup 6 --compare <main.js>]
//     --compare <main.js>  also measures another gateway build (a copy inside the repository, so that it
//                          finds node_modules), target by target (repeatable)
//     --target <name>      only this target, e.g. --target "REST tool, 2025" (repeatable; a bisection's
//                          runs need only the target that moved)
import '../usage.mjs';

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import {
  callRequest,
  check,
  mcpRequest,
  root,
  startBenchMcpServer,
  startGateway,
  startToolService,
  stopAll,
  stopProcess,
} from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';

const { values: options } = parseArgs({
  options: {
    rate: { type: 'string', default: SMOKE ? '200' : '2000' },
    duration: { type: 'string', default: SMOKE ? '1' : '6' },
    warmup: { type: 'string', default: SMOKE ? '1' : '6' },
    compare: { type: 'string', multiple: true, default: [] },
    target: { type: 'string', multiple: true, default: [] },
    smoke: { type: 'boolean', default: false },
  },
});
const [rate, duration, warmup] = [options.rate, options.duration, options.warmup].map(Number);
if (!(rate >= 1) || !(duration >= 1) || !(warmup >= 0)) throw new Error('--rate and --duration must be numbers >= 1, --warmup >= 0');

/** One line of `--trace-gc-nvp`: its kind (`s` is a young collection), and the bytes it names. */
function collections(text) {
  return [...text.matchAll(/^.*\bgc=(\w+)\b.*$/gm)].map(([line, kind]) => ({
    young: kind === 's',
    allocated: Number(/\ballocated=(\d+)/.exec(line)?.[1] ?? 0),
    promoted: Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0),
  }));
}

/** Promises made per call: the counting hook's totals before and after a measured run, read from the gateway's output. */
async function promisesPerCall(main, target, upstream) {
  const counter = path.join(path.dirname(fileURLToPath(import.meta.url)), 'count-promises.cjs');
  const gateway = await startGateway(upstream, { main, bundle: target.bundle, nodeOptions: ['--require', counter], keepOutput: true });
  const counts = () => [...gateway.output().matchAll(/^promises=(\d+)$/gm)].map((match) => Number(match[1]));
  const counted = async () => {
    const seen = counts().length;
    process.kill(gateway.pid, 'SIGUSR2');
    while (counts().length === seen) await new Promise((resolve) => setTimeout(resolve, 20));
    return counts()[seen];
  };
  try {
    const load = (seconds) =>
      autocannon({ url: gateway.url, method: 'POST', ...target.call, connections: 32, overallRate: rate, duration: seconds });
    await load(Math.max(1, Math.min(2, warmup)));
    const before = await counted();
    const run = await load(Math.max(1, Math.min(2, duration)));
    return Math.round((((await counted()) - before) / run.requests.total) * 10) / 10;
  } finally {
    await stopProcess(gateway.pid);
  }
}

async function measure(main, target, upstream) {
  const gateway = await startGateway(upstream, { main, bundle: target.bundle, nodeOptions: ['--trace-gc-nvp'], keepOutput: true });
  try {
    await check(gateway.url, target.call, 'hello');
    const load = (seconds) =>
      autocannon({ url: gateway.url, method: 'POST', ...target.call, connections: 32, overallRate: rate, duration: seconds });
    for (let left = warmup; left > 0; left -= 2) await load(Math.min(2, left));
    const from = gateway.output().length;
    const run = await load(duration);
    if (run.errors > 0 || run.non2xx > 0) throw new Error(`${target.name}: ${run.errors} errors, ${run.non2xx} non-2xx replies`);
    const calls = run.requests.total;
    const seen = collections(gateway.output().slice(from));
    const young = seen.filter((gc) => gc.young);
    const sum = (list, field) => list.reduce((total, gc) => total + gc[field], 0);
    return {
      calls,
      allocatedPerCall: Math.round(sum(seen, 'allocated') / calls),
      promotedPerCall: Math.round(sum(young, 'promoted') / calls),
      youngPer1000Calls: Math.round((young.length * 1000 * 10) / calls) / 10,
      fullPer10000Calls: Math.round(((seen.length - young.length) * 10000 * 10) / calls) / 10,
    };
  } finally {
    await stopProcess(gateway.pid);
  }
}

const fedCall = (era) => mcpRequest(era, 'tools/call', { name: 'echo', arguments: { text: 'hello' } });
try {
  const toolService = await startToolService(10);
  const mcpServer = await startBenchMcpServer();
  const allTargets = [
    { name: 'REST tool, 2025', call: callRequest('legacy'), upstream: toolService.url },
    { name: 'REST tool, 2026-07-28', call: callRequest('modern'), upstream: toolService.url },
    {
      name: 'MCP tool, 2025',
      call: fedCall('legacy'),
      upstream: mcpServer.url,
      bundle: `mcpServer: { url: "${mcpServer.url}", era: "2025" }`,
    },
    {
      name: 'MCP tool, 2026-07-28',
      call: fedCall('modern'),
      upstream: mcpServer.url,
      bundle: `mcpServer: { url: "${mcpServer.url}", era: "2026-07-28" }`,
    },
  ];
  // Under --smoke one target per kind of tool, each in another era: every path of the script, half the processes.
  const chosen = SMOKE ? ['REST tool, 2025', 'MCP tool, 2026-07-28'] : options.target;
  const targets = chosen.length === 0 ? allTargets : allTargets.filter((target) => chosen.includes(target.name));
  if (targets.length === 0) throw new Error(`--target must name one of: ${allTargets.map((target) => target.name).join('; ')}`);
  const builds = [path.join(root, 'dist/apps/gateway/main.js'), ...options.compare.map((main) => path.resolve(main))];
  console.log(`${rate} calls/s (autocannon), ${warmup} s of warm-up, ${duration} s measured per target, node ${process.version}\n`);
  console.log(
    `${'build'.padEnd(28)} ${'target'.padEnd(22)} ${'allocated/call'.padStart(15)} ${'promoted/call'.padStart(14)} ${'young GCs/1k'.padStart(13)} ${'full GCs/10k'.padStart(13)} ${'promises/call'.padStart(14)}`,
  );
  const rows = [];
  for (const target of targets) {
    for (const main of builds) {
      const row = {
        build: path.relative(root, main),
        target: target.name,
        ...(await measure(main, target, target.upstream)),
        promisesPerCall: await promisesPerCall(main, target, target.upstream),
      };
      rows.push(row);
      console.log(
        `${row.build.padEnd(28)} ${row.target.padEnd(22)} ${`${(row.allocatedPerCall / 1024).toFixed(1)} KB`.padStart(15)} ${`${row.promotedPerCall} B`.padStart(14)} ${String(row.youngPer1000Calls).padStart(13)} ${String(row.fullPer10000Calls).padStart(13)} ${String(row.promisesPerCall).padStart(14)}`,
      );
    }
  }
  if (!SMOKE) {
    mkdirSync(path.join(root, 'tmp/bench'), { recursive: true });
    writeFileSync(path.join(root, 'tmp/bench/gateway-gc.json'), `${JSON.stringify({ rate, duration, warmup, rows }, null, 2)}\n`);
  }
} finally {
  stopAll();
}
smokeRan('gateway-gc');
