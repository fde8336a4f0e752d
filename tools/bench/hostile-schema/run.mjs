#!/usr/bin/env node
// Hostile-schema benchmark (SPEC N5, ADR 0012): what a catastrophic-backtracking pattern costs the built
// gateway now that patterns run on RE2. A manifest tool with `pattern: "^(a+)+$"` is called with 30 `a`
// and a `!` (on V8's backtracking engine: 55-95 s of frozen event loop per call). Reported against
// baselines measured in the same run: the same tool called with an argument its pattern accepts (which
// also reaches the tool service), and liveness probed while idle. Usage (after `npx nx run gateway:build`):
//   node tools/bench/hostile-schema/run.mjs [--calls 200] [--seconds 3]
import { parseArgs } from 'node:util';

import { startEchoGateway } from '../echo-gateway.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';
const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: SMOKE ? '5' : '200' },
    seconds: { type: 'string', default: SMOKE ? '1' : '3' },
    smoke: { type: 'boolean', default: false },
  },
});
const CALLS = Number(values.calls);
const SECONDS = Number(values.seconds);

const { mcpUrl, managementUrl, stop } = await startEchoGateway([
  { name: 'redos_echo', inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } }, required: ['text'] } },
]);

const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
const call = (text) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'redos_echo', arguments: { text } } });
const HOSTILE = call(`${'a'.repeat(30)}!`);
const ACCEPTED = call('a'.repeat(30));

async function timed(fn) {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}
const post = async (body) => {
  const reply = await (await fetch(mcpUrl, { method: 'POST', headers, body })).json();
  if (!reply.result) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
  return reply.result;
};
const liveness = async () => {
  const res = await fetch(`${managementUrl}/actuator/health/liveness`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`liveness answered ${res.status}`);
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const max = (values) => Math.max(...values);

// Sequential calls, alternating, so both see the same machine.
while ((await post(ACCEPTED)).isError) await new Promise((resolve) => setTimeout(resolve, 50)); // catalogue loaded
const hostile = [];
const accepted = [];
for (let i = 0; i < CALLS; i++) {
  hostile.push(await timed(() => post(HOSTILE)));
  accepted.push(await timed(() => post(ACCEPTED)));
}
const idleProbes = [];
for (let i = 0; i < 50; i++) idleProbes.push(await timed(liveness));

/** Liveness probed while 32 clients send `body` back to back; resolves the probes and the calls sent. */
async function livenessUnder(body) {
  let running = true;
  const clients = Array.from({ length: 32 }, async () => {
    let sent = 0;
    while (running) {
      await post(body);
      sent += 1;
    }
    return sent;
  });
  const probes = [];
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) probes.push(await timed(liveness));
  running = false;
  return { probes, sent: (await Promise.all(clients)).reduce((a, b) => a + b, 0) };
}
const underAccepted = await livenessUnder(ACCEPTED);
const underHostile = await livenessUnder(HOSTILE);

stop();

const ms = (value) => `${value.toFixed(2)} ms`;
console.log(`| measure | median | max | vs baseline (median) |`);
console.log(`|---|---|---|---|`);
console.log(
  `| tools/call, accepted argument (baseline; reaches the tool service) | ${ms(median(accepted))} | ${ms(max(accepted))} | 1.00x |`,
);
console.log(
  `| tools/call, ^(a+)+$ on 30 a + "!" (refused by the validator) | ${ms(median(hostile))} | ${ms(max(hostile))} | ${(median(hostile) / median(accepted)).toFixed(2)}x |`,
);
console.log(`| liveness, idle | ${ms(median(idleProbes))} | ${ms(max(idleProbes))} | |`);
console.log(
  `| liveness, 32 clients sending accepted calls (baseline; ${underAccepted.sent} in ${SECONDS} s) | ${ms(median(underAccepted.probes))} | ${ms(max(underAccepted.probes))} | 1.00x |`,
);
console.log(
  `| liveness, 32 clients sending hostile calls (${underHostile.sent} in ${SECONDS} s) | ${ms(median(underHostile.probes))} | ${ms(max(underHostile.probes))} | ${(median(underHostile.probes) / median(underAccepted.probes)).toFixed(2)}x |`,
);
smokeRan('hostile-schema');
