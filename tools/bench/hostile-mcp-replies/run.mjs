#!/usr/bin/env node
// Hostile MCP replies benchmark (issue 43, item 4): a federated MCP server answers tool calls with results
// nested 2,000,000 levels deep (4 MB each, under the 4 MiB message limit), as JSON bodies and as SSE events
// (tools/test/peers/hostile-mcp-server.mjs). Two built gateways run side by side, each federating that server
// beside the bench tool service: the attacked one, whose caller sends waves of `--calls` deep calls at once,
// one wave after another, JSON and SSE in turn, for `--seconds`; and its idle twin, which nobody attacks.
// While the waves run, a neighbour's `tools/call` (the REST tool service's) and liveness probes are sent in
// turn to each gateway. Reported as ratios attacked / twin, with the bounds of the issue: the neighbour's
// p50 within 2x, liveness answered, peak RSS (VmHWM) within 1.2x, no crash; beside them each gateway's CPU
// in the window and the longest liveness wait. `--main` measures another build (the one before the fix,
// copied under tmp/, for the "before").
// Usage (after `npx nx build gateway`):
//   node tools/bench/hostile-mcp-replies/run.mjs [--calls 5] [--seconds 10] [--levels 2000000] [--main <main.js>]
import path from 'node:path';
import { parseArgs } from 'node:util';

import { root, start, startToolService, stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';
import { alive, answered, callTool, cpuSeconds, p50, printTable, ratio, share, startTwins, statusMib, Tally } from '../twin-run.mjs';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '5' },
    seconds: { type: 'string', default: SMOKE ? '1' : '10' },
    levels: { type: 'string', default: SMOKE ? '2000' : '2000000' },
    main: { type: 'string', default: path.join(root, 'dist/apps/gateway/main.js') },
    smoke: { type: 'boolean', default: false },
  },
});
const CALLS = Number(values.calls);
const SECONDS = Number(values.seconds);
/** A neighbour's call or a probe not answered within this counts as not answered. */
const ANSWER_TIMEOUT_MILLIS = 30_000;

const service = await startToolService(10);
const hostile = await start(
  'hostile MCP server',
  [path.join(root, 'tools/test/peers/hostile-mcp-server.mjs')],
  { DEEP_LEVELS: values.levels },
  /listening on (\S+)/,
);

const gatewayYaml = `mcp:
  bundles:
    - { name: neighbour, serviceDomain: "${service.url}", manifestPath: /tool-manifest }
    - { name: hostile, mcpServer: { url: "${hostile.url}", era: "2025" } }
`;
const { attacked, twin, neighbour, liveness } = await startTwins(
  gatewayYaml,
  { main: values.main },
  { tool: 'tool_0000', args: { text: 'hi' }, timeoutMillis: ANSWER_TIMEOUT_MILLIS, warmUps: SMOKE ? 5 : 50 },
);

/** How the deep calls ended: the code in an isError result's text, or what else came. */
const outcomes = new Tally();
const outcomeOf = (reply) => {
  const text = reply.result?.content?.[0]?.text ?? '';
  if (reply.result?.isError) return /\[([a-z_.]+)\]$/.exec(text)?.[1] ?? text.replace(/\d+/g, 'N').slice(0, 80);
  return reply.result ? 'answered' : `JSON-RPC error ${reply.error?.code}`;
};
const cpuAtStart = { attacked: cpuSeconds(attacked), twin: cpuSeconds(twin) };
let waves = 0;
let attacking = true;
const attack = (async () => {
  while (attacking) {
    const tool = waves % 2 === 0 ? 'deep_json' : 'deep_sse';
    waves += 1;
    const replies = Array.from({ length: CALLS }, () => callTool(attacked, tool, {}, 120_000).then(outcomeOf, () => 'no answer'));
    for (const outcome of await Promise.all(replies)) outcomes.add(`${tool}: ${outcome}`);
  }
})();

// The neighbour's calls, and beside them on a loop of their own the liveness probes, each in turn to both
// gateways so that both see the same machine: a probe waits out whatever holds the loop, even while a
// neighbour's call does.
const samples = { attacked: { calls: [], probes: [] }, twin: { calls: [], probes: [] } };
const until = performance.now() + SECONDS * 1000;
const inTurn = async (sample, list) => {
  while (performance.now() < until || waves < 2) {
    list.attacked.push(await sample(attacked));
    list.twin.push(await sample(twin));
  }
};
await Promise.all([
  inTurn(neighbour, { attacked: samples.attacked.calls, twin: samples.twin.calls }),
  inTurn(liveness, { attacked: samples.attacked.probes, twin: samples.twin.probes }),
]);
attacking = false;
await attack;
const cpu = { attacked: cpuSeconds(attacked) - cpuAtStart.attacked, twin: cpuSeconds(twin) - cpuAtStart.twin };
const rss = { attacked: statusMib(attacked, 'VmHWM'), twin: statusMib(twin, 'VmHWM') };
const survived = alive(attacked);
stopAll();

const answeredP50 = (list) => p50(answered(list));
const longest = (list) => (answered(list).length === 0 ? NaN : Math.max(...answered(list)));
const ms = (value) => (Number.isNaN(value) ? 'none answered' : `${value.toFixed(value < 100 ? 2 : 0)} ms`);
const { attacked: hit, twin: idle } = samples;
const bytes = Number(values.levels) * 2;
console.log(
  `attack: ${waves} waves of ${CALLS} tools/call at once, each answered with a result nested ${values.levels} levels deep (${(bytes / 1e6).toFixed(1)} MB), JSON and SSE in turn, for ${SECONDS} s; gateway ${path.relative(root, values.main)}`,
);
console.log(`deep calls ended as: ${outcomes}`);
console.log();
printTable(
  ['measure', 'attacked', 'idle twin', 'attacked / twin', 'bound'],
  [
    [
      'neighbour `tools/call` p50 (longest)',
      `${ms(answeredP50(hit.calls))} (${ms(longest(hit.calls))})`,
      `${ms(answeredP50(idle.calls))} (${ms(longest(idle.calls))})`,
      ratio(answeredP50(hit.calls), answeredP50(idle.calls)),
      '2x',
    ],
    ['neighbour calls answered', share(hit.calls), share(idle.calls), '', 'all'],
    ['liveness answered', share(hit.probes), share(idle.probes), '', 'all'],
    [
      'liveness p50 (longest)',
      `${ms(answeredP50(hit.probes))} (${ms(longest(hit.probes))})`,
      `${ms(answeredP50(idle.probes))} (${ms(longest(idle.probes))})`,
      ratio(answeredP50(hit.probes), answeredP50(idle.probes)),
      '',
    ],
    ['CPU in the window', `${cpu.attacked.toFixed(2)} s`, `${cpu.twin.toFixed(2)} s`, '', ''],
    ['peak RSS (VmHWM)', `${rss.attacked.toFixed(0)} MiB`, `${rss.twin.toFixed(0)} MiB`, ratio(rss.attacked, rss.twin), '1.2x'],
    ['process at the end', survived ? 'alive' : '**crashed**', 'alive', '', 'alive'],
  ],
);
smokeRan('hostile-mcp-replies');
