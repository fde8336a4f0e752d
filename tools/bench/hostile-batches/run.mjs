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
import path from 'node:path';
import { parseArgs } from 'node:util';

import { root, startToolService, stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';
import { alive, answered, p50, printTable, ratio, share, sleep, startTwins, statusMib, Tally } from '../twin-run.mjs';

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

// Under --smoke a 100-tool catalogue: the same path, a tenth of the catalogue to load and list.
const service = await startToolService(SMOKE ? 100 : 1000);
const gatewayYaml = `mcp:\n  bundles: [{ name: bench, serviceDomain: "${service.url}", manifestPath: /tool-manifest }]\n`;
const gatewayOptions = { main: values.main, nodeOptions: [`--max-old-space-size=${values.heap}`] };

const { attacked, twin, neighbour, liveness } = await startTwins(gatewayYaml, gatewayOptions, {
  tool: 'tool_0000',
  args: { text: 'hi' },
  timeoutMillis: ANSWER_TIMEOUT_MILLIS,
  warmUps: SMOKE ? 5 : 50,
});
const ATTACK = JSON.stringify(Array.from({ length: MEMBERS }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })));

const attackAnswers = new Tally();
let attackBytes = 0;
let attacking = true;
const attackers = Array.from({ length: ATTACKERS }, async () => {
  while (attacking) {
    try {
      const res = await fetch(attacked.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-03-26' },
        body: ATTACK,
        signal: AbortSignal.timeout(60_000),
      });
      const body = await res.arrayBuffer();
      attackBytes = Math.max(attackBytes, body.byteLength);
      attackAnswers.add(`HTTP ${res.status}`);
    } catch {
      attackAnswers.add('no answer');
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
    const rss = statusMib(gateway, 'VmRSS'); // NaN once gone
    if (rss > samples[name].rss) samples[name].rss = rss;
  }
}
attacking = false;
await Promise.all(attackers);
const survived = alive(attacked);
stopAll();

const answeredP50 = (values) => p50(answered(values));
const ms = (value) => (Number.isNaN(value) ? 'none answered' : `${value.toFixed(2)} ms`);
const { attacked: hit, twin: idle } = samples;
console.log(`attack: ${ATTACKERS} clients sending a batch of ${MEMBERS} tools/list members (${ATTACK.length} bytes) for ${SECONDS} s`);
console.log(`attack answers: ${attackAnswers}; largest ${(attackBytes / 1024).toFixed(1)} KiB`);
console.log();
printTable(
  ['measure', 'attacked', 'idle twin', 'attacked / twin', 'bound'],
  [
    [
      'neighbour `tools/call` p50',
      ms(answeredP50(hit.calls)),
      ms(answeredP50(idle.calls)),
      ratio(answeredP50(hit.calls), answeredP50(idle.calls)),
      '2x',
    ],
    ['neighbour calls answered', share(hit.calls), share(idle.calls), '', 'all'],
    ['liveness answered', share(hit.probes), share(idle.probes), '', 'all'],
    [
      'liveness p50',
      ms(answeredP50(hit.probes)),
      ms(answeredP50(idle.probes)),
      ratio(answeredP50(hit.probes), answeredP50(idle.probes)),
      '',
    ],
    ['RSS, highest sampled', `${hit.rss.toFixed(0)} MiB`, `${idle.rss.toFixed(0)} MiB`, ratio(hit.rss, idle.rss), '1.2x'],
    ['process at the end', survived ? 'alive' : '**crashed**', 'alive', '', 'alive'],
  ],
);
smokeRan('hostile-batches');
