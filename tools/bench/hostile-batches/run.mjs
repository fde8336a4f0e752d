#!/usr/bin/env node
// Hostile batches benchmark (issue 43, item 1): a JSON-RPC batch of `tools/list` members (MCP 2025-03-26,
// no token needed by default) sent over and over to the built gateway with a 1,000-tool catalogue and the
// issue's heap (--max-old-space-size=384), against an idle twin started alike in the same run. While
// `--attackers` clients send the attack batch back to back, a neighbour's `tools/call` and liveness are
// sent in turn to the attacked gateway and to its twin; both processes' RSS is sampled. Reported as
// ratios attacked / twin, with the bounds of the issue: the neighbour's p50 within 2x, liveness answered,
// RSS within 1.2x, no crash. `--main` measures another build (the one before the fix, for the "before").
// Usage (after `npx nx build gateway`):
//   node tools/bench/hostile-batches/run.mjs [--members 300] [--attackers 4] [--seconds 10] [--main <main.js>]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { root, startGateway, startToolService, stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';

const { values } = parseArgs({
  options: {
    members: { type: 'string', default: SMOKE ? '40' : '300' },
    attackers: { type: 'string', default: SMOKE ? '1' : '4' },
    seconds: { type: 'string', default: SMOKE ? '1' : '10' },
    heap: { type: 'string', default: '384' },
    main: { type: 'string', default: path.join(root, 'dist/apps/gateway/main.js') },
    smoke: { type: 'boolean', default: false },
  },
});
const MEMBERS = Number(values.members);
const ATTACKERS = Number(values.attackers);
const SECONDS = Number(values.seconds);
/** A neighbour's call or a probe not answered within this counts as not answered. */
const ANSWER_TIMEOUT_MILLIS = 10_000;

const service = await startToolService(1000);
const gatewayOptions = { main: values.main, nodeOptions: [`--max-old-space-size=${values.heap}`] };
const [attacked, twin] = await Promise.all(
  [0, 1].map(async () => {
    const gateway = await startGateway(service.url, gatewayOptions);
    return { ...gateway, managementUrl: /managementUrl=(\S+)/.exec(gateway.output())[1] };
  }),
);

const ATTACK = JSON.stringify(Array.from({ length: MEMBERS }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })));
const NEIGHBOUR = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tool_0000', arguments: { text: 'hi' } } });
const post = (gateway, body, version) =>
  fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': version },
    body,
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MILLIS),
  });
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));
const alive = (gateway) => {
  try {
    process.kill(gateway.pid, 0);
    return true;
  } catch {
    return false;
  }
};
const rssMib = (gateway) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gateway.pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return 0; // gone
  }
};

/** Milliseconds to an answer `ok` accepts, or undefined when none came (an error, a timeout, a crash). */
async function timed(fn, ok) {
  const started = performance.now();
  try {
    return ok(await fn()) ? performance.now() - started : undefined;
  } catch {
    return undefined;
  }
}
const neighbour = (gateway) =>
  timed(
    () => post(gateway, NEIGHBOUR, '2025-11-25').then((res) => res.json()),
    (reply) => reply.result?.isError === false,
  );
const liveness = (gateway) =>
  timed(
    () => fetch(`${gateway.managementUrl}/actuator/health/liveness`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MILLIS) }),
    (res) => res.status === 200,
  );

for (const gateway of [attacked, twin]) while ((await neighbour(gateway)) === undefined) await sleep(50); // catalogue loaded
for (let i = 0; i < 50; i++) await Promise.all([neighbour(attacked), neighbour(twin)]); // warm-up

const attackAnswers = new Map();
const count = (outcome) => attackAnswers.set(outcome, (attackAnswers.get(outcome) ?? 0) + 1);
let attackBytes = 0;
let attacking = true;
const attackers = Array.from({ length: ATTACKERS }, async () => {
  while (attacking) {
    try {
      const res = await fetch(attacked.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-03-26' },
        body: ATTACK,
        signal: AbortSignal.timeout(60_000),
      });
      const body = await res.arrayBuffer();
      attackBytes = Math.max(attackBytes, body.byteLength);
      count(`HTTP ${res.status}`);
    } catch {
      count('no answer');
      await sleep(100); // the gateway is gone: no busy loop against a closed port
    }
  }
});

// The neighbour and the probes, in turn to each gateway, so that both see the same machine.
const samples = { attacked: { calls: [], probes: [], rss: 0 }, twin: { calls: [], probes: [], rss: 0 } };
const until = performance.now() + SECONDS * 1000;
while (performance.now() < until) {
  for (const [name, gateway] of [
    ['attacked', attacked],
    ['twin', twin],
  ]) {
    samples[name].calls.push(await neighbour(gateway));
    samples[name].probes.push(await liveness(gateway));
    samples[name].rss = Math.max(samples[name].rss, rssMib(gateway));
  }
}
attacking = false;
await Promise.all(attackers);
const survived = alive(attacked);
stopAll();

const answered = (values) => values.filter((value) => value !== undefined);
const p50 = (values) => {
  const sorted = answered(values).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};
const ms = (value) => (Number.isNaN(value) ? 'none answered' : `${value.toFixed(2)} ms`);
const ratio = (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? '-' : `**${(a / b).toFixed(2)}x**`);
const share = (values) => `${answered(values).length} of ${values.length}`;
const { attacked: hit, twin: idle } = samples;
console.log(`attack: ${ATTACKERS} clients sending a batch of ${MEMBERS} tools/list members (${ATTACK.length} bytes) for ${SECONDS} s`);
console.log(
  `attack answers: ${[...attackAnswers].map(([outcome, n]) => `${outcome} ${n}`).join(', ')}; largest ${(attackBytes / 1024).toFixed(1)} KiB`,
);
console.log();
console.log('| measure | attacked | idle twin | attacked / twin | bound |');
console.log('|---|---|---|---|---|');
console.log(
  `| neighbour \`tools/call\` p50 | ${ms(p50(hit.calls))} | ${ms(p50(idle.calls))} | ${ratio(p50(hit.calls), p50(idle.calls))} | 2x |`,
);
console.log(`| neighbour calls answered | ${share(hit.calls)} | ${share(idle.calls)} | | all |`);
console.log(`| liveness answered | ${share(hit.probes)} | ${share(idle.probes)} | | all |`);
console.log(`| liveness p50 | ${ms(p50(hit.probes))} | ${ms(p50(idle.probes))} | ${ratio(p50(hit.probes), p50(idle.probes))} | |`);
console.log(`| RSS, highest sampled | ${hit.rss.toFixed(0)} MiB | ${idle.rss.toFixed(0)} MiB | ${ratio(hit.rss, idle.rss)} | 1.2x |`);
console.log(`| process at the end | ${survived ? 'alive' : '**crashed**'} | alive | | alive |`);
smokeRan('hostile-batches');
