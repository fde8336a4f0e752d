#!/usr/bin/env node
// Hostile tool services benchmark (issue 32): the figures of the three attacks on the built gateway that
// its e2e test (apps/gateway/src/e2e/hostile-tool-services.e2e.spec.ts) asserts only as behaviour.
//   1. deep replies: `echo`'s latency while one caller, then five, ask for an 8 MB reply of nested arrays,
//      as a ratio of its idle p50 (the bound: 2x while a deep reply is processed);
//   2. stuck tools: `echo`'s latency while two tools of its service hold every call they may (64 each);
//   3. a 50,000-tool manifest at every TTL: the gateway's CPU between TTLs, `echo`'s latency, and its RSS
//      once the manifest is small again, against the RSS before (the bound: within 20%).
// Usage (after `npx nx build gateway`): node tools/bench/hostile-tool-services/run.mjs [--calls 200] [--ttls 5]
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { cpuMicros, start, stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: SMOKE ? '3' : '200' },
    ttls: { type: 'string', default: SMOKE ? '1' : '5' },
    smoke: { type: 'boolean', default: false },
  },
});
const CALLS = Number(values.calls);
const TTLS = Number(values.ttls);
const TTL_MILLIS = SMOKE ? 500 : 2_000;

const serviceUrl = (await start('hostile tool service', [path.join(import.meta.dirname, 'hostile-service.mjs')], {}, /listening on (\S+)/))
  .url;
const control = async (what) => (await fetch(`${serviceUrl}/control/${what}`, { method: what === 'stuck' ? 'GET' : 'POST' })).text();
const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-hostile-bench-')), 'gateway.yaml');
writeFileSync(
  config,
  `server: { port: 0, managementPort: 0 }
mcp:
  maxToolTimeoutMillis: 120000
  catalogue: { refreshTtlMillis: ${TTL_MILLIS}, manifestTimeoutMillis: 30000 }
  bundles: [{ name: hostile, serviceDomain: "${serviceUrl}", manifestPath: /tool-manifest }]
`,
);
const gateway = await start(
  'gateway',
  [path.join(import.meta.dirname, '../../../dist/apps/gateway/main.js'), '--config', config],
  {},
  /event=gateway_started mcpUrl=(\S+)/,
);
const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
const call = async (name) =>
  (
    await (
      await fetch(gateway.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
      })
    ).json()
  ).result;
const rssMib = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gateway.pid}/status`, 'utf8'))[1]) / 1024;
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));
const p50 = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
async function echoLatencies(count) {
  const latencies = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const result = await call('echo');
    if (result?.isError !== false) throw new Error(`echo failed: ${JSON.stringify(result)}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

while ((await call('echo'))?.isError !== false) await sleep(50); // catalogue loaded
await echoLatencies(CALLS); // warm-up
const idleCpuStart = cpuMicros(gateway.pid);
const idle = p50(await echoLatencies(CALLS));
const cpuPerEcho = (cpuMicros(gateway.pid) - idleCpuStart) / CALLS;
const rows = [['echo, idle (baseline)', idle, '1.00x']];

// 1. Each echo call sent while five deep replies are in flight (and so, being read and refused), against
// the same with five ordinary calls in flight: six calls at once queue for the CPU whatever they carry,
// so on a busy machine that, not the idle p50, is what a deep reply must not make worse.
const withEchoes = [];
for (let round = 0; round < CALLS; round++) {
  const others = Array.from({ length: 5 }, () => call('echo'));
  withEchoes.push(...(await echoLatencies(1)));
  await Promise.all(others);
}
const underEchoes = p50(withEchoes);
rows.push(['echo, sent with 5 ordinary calls in flight', underEchoes, `${(underEchoes / idle).toFixed(2)}x`]);
// The bound, as it is worded: echo while a deep reply is processed (one at a time), against idle.
const withOneDeep = [];
for (let round = 0; round < CALLS; round++) {
  const deep = call('deep_reply');
  withOneDeep.push(...(await echoLatencies(1)));
  await deep;
}
const underOneDeep = p50(withOneDeep);
rows.push(['echo, sent while one deep 8 MB reply is in flight', underOneDeep, `${(underOneDeep / idle).toFixed(2)}x`]);
const underDeepLatencies = [];
let deepRefused = 0;
const deepCpuStart = cpuMicros(gateway.pid);
for (let round = 0; round < CALLS; round++) {
  const deep = Array.from({ length: 5 }, () => call('deep_reply'));
  underDeepLatencies.push(...(await echoLatencies(1)));
  for (const result of await Promise.all(deep)) if (result?.isError) deepRefused += 1;
}
const underDeep = p50(underDeepLatencies);
// The gateway's own CPU per deep reply (the echo calls of the rounds taken out): what the machine's load cannot blur.
const cpuPerDeep = (cpuMicros(gateway.pid) - deepCpuStart - cpuPerEcho * CALLS) / (5 * CALLS);
rows.push([
  `echo, sent with 5 deep 8 MB replies in flight (${deepRefused} of ${5 * CALLS} refused as isError)`,
  underDeep,
  `${(underDeep / idle).toFixed(2)}x (${(underDeep / underEchoes).toFixed(2)}x of the row above)`,
]);

// 2. Two tools stuck at their caps: 64 + 64 calls never answered.
const stuckCalls = Array.from({ length: 128 }, (_, i) => call(i < 64 ? 'stuck_a' : 'stuck_b'));
while (Number(await control('stuck')) < 96) await sleep(20);
const underStuck = p50(await echoLatencies(CALLS));
rows.push([
  `echo, two tools of its service stuck (${await control('stuck')} calls held)`,
  underStuck,
  `${(underStuck / idle).toFixed(2)}x`,
]);
await control('release');
await Promise.all(stuckCalls);

// 3. The 50,000-tool manifest, refused at every TTL; then the small one again.
await sleep(TTL_MILLIS);
const rssBefore = rssMib();
await control('huge');
const cpuStart = cpuMicros(gateway.pid);
const windowStart = performance.now();
const latencies = [];
while (performance.now() - windowStart < TTLS * TTL_MILLIS) latencies.push(...(await echoLatencies(20)), await sleep(50));
const cpuShare = (cpuMicros(gateway.pid) - cpuStart) / 1000 / (performance.now() - windowStart);
const underHuge = p50(latencies.filter((value) => typeof value === 'number'));
rows.push([`echo, a 50,000-tool manifest refused at each ${TTL_MILLIS} ms TTL`, underHuge, `${(underHuge / idle).toFixed(2)}x`]);
// The same manifest with no calls at all: what the refresh itself costs, one fetch and refusal per TTL,
// and nothing in between.
const quietCpuStart = cpuMicros(gateway.pid);
const quietStart = performance.now();
await sleep(TTLS * TTL_MILLIS);
const quietCpuShare = (cpuMicros(gateway.pid) - quietCpuStart) / 1000 / (performance.now() - quietStart);
await control('small');
// V8 gives back what a burst took once the process is quiet (its memory reducer), so the wait is idle,
// up to 90 s, ended as soon as the RSS is back within 20%.
await echoLatencies(5); // a refresh at the next TTL: the small manifest is back
let rssAfter = rssMib();
for (let i = 0; i < (SMOKE ? 0 : 180) && rssAfter > rssBefore * 1.2; i++) {
  await sleep(500);
  rssAfter = rssMib();
}

stopAll();
const ms = (value) => `${value.toFixed(2)} ms`;
console.log('| measure | p50 | vs idle p50 |');
console.log('|---|---|---|');
for (const [label, value, ratio] of rows) console.log(`| ${label} | ${ms(value)} | ${ratio} |`);
console.log();
console.log(
  `gateway CPU per call: ${(cpuPerEcho / 1000).toFixed(2)} ms per echo call, ${(cpuPerDeep / 1000).toFixed(2)} ms per deep 8 MB reply refused`,
);
console.log(
  `gateway CPU while the 50,000-tool manifest was served for ${TTLS} TTLs (calls included): ${(cpuShare * 100).toFixed(1)}% of a core`,
);
console.log(
  `gateway CPU with that manifest and no calls, ${TTLS} TTLs: ${(quietCpuShare * 100).toFixed(1)}% of a core (${(quietCpuShare * TTL_MILLIS).toFixed(0)} ms per TTL)`,
);
console.log(
  `gateway RSS: ${rssBefore.toFixed(0)} MiB before the 50,000-tool manifest, ${rssAfter.toFixed(0)} MiB after, idle (${(rssAfter / rssBefore).toFixed(2)}x)`,
);
smokeRan('hostile-tool-services');
