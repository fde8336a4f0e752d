#!/usr/bin/env node
// Big catalogues (issue 50, docs/benchmarks.md "Big catalogues"): what 10,000 tools cost a gateway against
// the same build serving 100. Two gateways run side by side, each with one bundle of the bench tool
// service, one with --tools tools and one with 100:
//   memory:  V8's heap and the bytes outside it (Buffers) still live after two full collections, and the
//            RSS, of each gateway once its catalogue is served; reported per 1,000 tools beyond the 100.
//   latency: a paced load of `ping`, then of a small `tools/call`, against each gateway in turn, round
//            after round; the p99 of each, and per round the ratio of the big catalogue's p99 to the small
//            one's (median and range of those ratios).
// Usage (after `npx nx run gateway:build`):
//   node tools/bench/big-catalogue/run.mjs [--tools 10000 --rounds 9 --rate 500 --duration 5 --compare <main.js>]
//     --compare <main.js>  also reports the memory of another gateway build (a copy inside the repository, so
//                          that it finds node_modules) serving the same two catalogues
import '../usage.mjs';

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import {
  callRequest,
  check,
  mcpRequest,
  root,
  settle,
  startGateway,
  startToolService,
  stopAll,
  stopProcess,
} from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';

/** The catalogue the big one is measured against. */
const SMALL = 100;

const { values: options } = parseArgs({
  options: {
    tools: { type: 'string', default: SMOKE ? '1000' : '10000' },
    rounds: { type: 'string', default: SMOKE ? '1' : '9' },
    rate: { type: 'string', default: SMOKE ? '100' : '500' },
    duration: { type: 'string', default: SMOKE ? '1' : '5' },
    connections: { type: 'string', default: '8' },
    compare: { type: 'string', multiple: true, default: [] },
    smoke: { type: 'boolean', default: false },
  },
});
const [tools, rounds, rate, duration, connections] = [
  options.tools,
  options.rounds,
  options.rate,
  options.duration,
  options.connections,
].map(Number);
if (!(tools > SMALL) || !(rounds >= 1) || !(rate >= 1) || !(duration >= 1) || !(connections >= 1))
  throw new Error(`--tools must be a number above ${SMALL}; --rounds, --rate, --duration and --connections numbers >= 1`);

const HEAP_PROBE = path.join(root, 'tools/test/heap-probe-preload.cjs');
// Room for a 10,000-tool manifest and tools/list in one page (the defaults bound both well below that).
const CATALOGUE_LIMITS = `  catalogue: { maxTools: ${tools * 2}, toolsListPageSize: ${tools * 2}, maxSerializedBytes: 268435456, maxManifestBytes: 268435456, manifestTimeoutMillis: 60000 }\n`;

async function startServing(toolCount, main) {
  const service = await startToolService(toolCount);
  const gateway = await startGateway(service.url, {
    ...(main && { main }),
    extraYaml: CATALOGUE_LIMITS,
    nodeOptions: ['--expose-gc', '--require', HEAP_PROBE],
    keepOutput: true,
  });
  // Served once the catalogue is installed: until then a call is refused as the registry's unavailability.
  for (let attempt = 0; ; attempt += 1) {
    try {
      await check(gateway.url, callRequest('legacy'), 'hello');
      return { ...gateway, service };
    } catch (error) {
      if (attempt >= 240) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Live bytes after two full collections (heap-probe-preload.cjs), and the RSS, in MiB. */
async function memoryOf(gateway) {
  const probes = () => gateway.output().match(/heap-probe liveBytes=(\d+)/g) ?? [];
  const before = probes().length;
  process.kill(gateway.pid, 'SIGUSR2');
  while (probes().length === before) await new Promise((resolve) => setTimeout(resolve, 20));
  const live = Number(/liveBytes=(\d+)/.exec(probes().at(-1))[1]);
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gateway.pid}/status`, 'utf8'))[1]) * 1024;
  return { liveMiB: live / 2 ** 20, rssMiB: rss / 2 ** 20 };
}

async function p99Of(gateway, request) {
  await settle();
  const r = await autocannon({ url: gateway.url, method: 'POST', ...request, connections, overallRate: rate, duration });
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${r.errors} errors, ${r.non2xx} non-2xx replies`);
  return r.latency.p99;
}

const mib = (value) => value.toFixed(1).padStart(7);
const perThousand = (big, small) => ((big - small) / ((tools - SMALL) / 1000)).toFixed(2).padStart(6);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function reportMemory(label, main) {
  const small = await startServing(SMALL, main);
  const big = await startServing(tools, main);
  const [m100, mBig] = [await memoryOf(small), await memoryOf(big)];
  console.log(
    `${label.padEnd(26)} ${SMALL} tools: live ${mib(m100.liveMiB)} MiB, RSS ${mib(m100.rssMiB)} MiB   ${tools} tools: live ${mib(mBig.liveMiB)} MiB, RSS ${mib(mBig.rssMiB)} MiB   per 1,000 tools: live ${perThousand(mBig.liveMiB, m100.liveMiB)} MiB, RSS ${perThousand(mBig.rssMiB, m100.rssMiB)} MiB`,
  );
  return { small, big };
}

try {
  console.log(
    `\n${tools} tools against ${SMALL}; ${rounds} rounds of ${duration} s at ${rate} requests/s over ${connections} connections; node ${process.version}\n`,
  );
  for (const [i, main] of options.compare.entries()) {
    const { small, big } = await reportMemory(`--compare ${i + 1}`, main);
    for (const served of [small, big]) {
      await stopProcess(served.pid);
      await stopProcess(served.service.pid);
    }
  }
  const { small, big } = await reportMemory('this build', undefined);
  const requests = [
    ['ping', mcpRequest('legacy', 'ping')],
    ['tools/call', callRequest('legacy')],
  ];
  for (const [name, request] of requests) {
    const ratios = [];
    const p99s = { small: [], big: [] };
    for (let round = 0; round < rounds; round += 1) {
      // Alternating which goes first, so neither always meets the machine as the other left it.
      const order = round % 2 === 0 ? ['small', 'big'] : ['big', 'small'];
      const p99 = {};
      for (const which of order)
        p99[which] = await p99Of(which === 'small' ? small : big, { headers: request.headers, body: request.body });
      p99s.small.push(p99.small);
      p99s.big.push(p99.big);
      ratios.push(p99.big / p99.small);
    }
    console.log(
      `${name.padEnd(10)} p99 median: ${SMALL} tools ${median(p99s.small)} ms, ${tools} tools ${median(p99s.big)} ms;  ${tools} / ${SMALL} per round: median ${median(ratios).toFixed(2)}x, range ${Math.min(...ratios).toFixed(2)}x-${Math.max(...ratios).toFixed(2)}x`,
    );
  }
} finally {
  stopAll();
}
smokeRan('big-catalogue');
