#!/usr/bin/env node
// CPU per call of an OpenAPI tool against the same call through a manifest tool (issue 27: goal at most
// 1.05x), measured as tools/bench/gateway/cpu-per-call.mjs measures the gateway: utime+stime of the gateway
// process from /proc around load runs at a fixed rate, after warm-up runs. Both tools are served by ONE
// fresh gateway per round (the manifest and the OpenAPI document of one echo service), measured in
// alternating blocks A B B A A B B A: two gateway processes of one build differ by up to 15% for their
// whole life (JIT choices, heap layout), far more than the 5% asked about, while two paths of one process
// share all of that. The ratio is paired per round and its median reported.
//
// Usage (after `npx nx build gateway`):
//   node tools/bench/openapi/run.mjs [--rate 2000 --duration 3 --rounds 9 --warmup 10]
import '../usage.mjs';

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import { check, cpuMicros, mcpRequest, root, settle, start, stopAll, stopProcess } from '../gateway/processes.mjs';
import { SMOKE, SMOKE_SECONDS, smokeRan } from '../smoke.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: options } = parseArgs({
  options: {
    rate: { type: 'string', default: SMOKE ? '200' : '2000' },
    duration: { type: 'string', default: SMOKE ? SMOKE_SECONDS : '3' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: SMOKE ? '1' : '9' },
    warmup: { type: 'string', default: SMOKE ? SMOKE_SECONDS : '10' },
    smoke: { type: 'boolean', default: false },
  },
});
const [rate, duration, connections, rounds] = ['rate', 'duration', 'connections', 'rounds'].map((key) => Number(options[key]));
// Under --smoke, one run of 1 s: the path, not a steady state.
const warmupRunSeconds = SMOKE ? Number(SMOKE_SECONDS) : 2;
const warmupRuns = Math.max(1, Math.round(Number(options.warmup) / warmupRunSeconds));

function startGateway(service) {
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-openapi-bench-')), 'gateway.yaml');
  writeFileSync(
    config,
    `server: { port: 0, managementPort: 0 }
mcp:
  bundles:
    - { name: manifest, serviceDomain: "${service}", manifestPath: /tool-manifest }
    - { name: openapi, serviceDomain: "${service}", openapi: { documentUrl: "${service}/openapi.json", operations: [echoOpenApi] } }
`,
  );
  return start('gateway', [path.join(root, 'dist/apps/gateway/main.js'), '--config', config], {}, /event=gateway_started mcpUrl=(\S+)/);
}

const targets = [
  { name: 'manifest tool', call: mcpRequest('legacy', 'tools/call', { name: 'echo_manifest', arguments: { text: 'hello' } }), micros: [] },
  { name: 'OpenAPI tool', call: mcpRequest('legacy', 'tools/call', { name: 'echoOpenApi', arguments: { text: 'hello' } }), micros: [] },
];

async function drive(url, call, seconds) {
  const r = await autocannon({
    url,
    method: 'POST',
    headers: call.headers,
    body: call.body,
    connections,
    overallRate: rate,
    duration: seconds,
  });
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${r.errors} errors, ${r.non2xx} non-2xx replies`);
  return r.requests.total;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

try {
  const service = await start('openapi tool service', [path.join(here, 'openapi-tool-service.mjs')], {}, /listening on (\S+)/);
  console.log(
    `${rate} calls/s, ${connections} connections, ${warmupRuns} warm-up runs of ${warmupRunSeconds} s, ${duration} s per measurement, ${rounds} rounds, node ${process.version}\n`,
  );
  for (let round = 1; round <= rounds; round += 1) {
    const { url, pid } = await startGateway(service.url);
    for (const target of targets) await check(url, target.call, 'hello');
    for (let run = 0; run < warmupRuns; run += 1) for (const target of targets) await drive(url, target.call, warmupRunSeconds);
    // A B B A twice, the first of each pair alternating between rounds: whichever runs first after a pause
    // costs more, and both orders cancel that.
    const [a, b] = round % 2 === 1 ? targets : [...targets].reverse();
    const measured = new Map(targets.map((target) => [target, { micros: 0, calls: 0 }]));
    // Under --smoke each tool once: the path, not the balance.
    for (const target of SMOKE ? [a, b] : [a, b, b, a, a, b, b, a]) {
      await settle();
      const before = cpuMicros(pid);
      const calls = await drive(url, target.call, duration);
      const sum = measured.get(target);
      sum.micros += cpuMicros(pid) - before;
      sum.calls += calls;
    }
    for (const [target, { micros, calls }] of measured) {
      target.micros.push(micros / calls);
      console.log(`round ${round}  ${target.name.padEnd(14)} ${target.micros.at(-1).toFixed(1).padStart(6)} us/call (${calls} calls)`);
    }
    await stopProcess(pid);
  }
  const [manifestTool, openApiTool] = targets;
  const paired = median(openApiTool.micros.map((micros, round) => micros / manifestTool.micros[round]));
  console.log(
    `\nmedian us/call: manifest tool ${median(manifestTool.micros).toFixed(1)}, OpenAPI tool ${median(openApiTool.micros).toFixed(1)}`,
  );
  console.log(`OpenAPI / manifest, paired per round: ${paired.toFixed(3)}x (goal: at most 1.05x)`);
} finally {
  stopAll();
}
smokeRan('openapi');
