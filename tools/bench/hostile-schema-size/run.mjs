#!/usr/bin/env node
// Hostile schema size benchmark (issue 43, item 2): a tool service turns hostile and adds one tool whose
// schema costs the gateway what its size does, in two cases:
//   - manifest: a manifest tool with 10,000 properties, each with its own `pattern` (566 KB);
//   - openapi: an OpenAPI 3.0 operation with 10,000 query parameters.
// Per case, built gateways run side by side, each with one bundle whose `echo` tool this script serves:
//   - the idle twin, whose source stays good: the baseline of every ratio;
//   - "after": the same gateway (the build `--main`, dist/ by default) whose source turns hostile
//     (mcp.catalogue.maxSchemaNodes at its default);
//   - "before": the same on the build `--before` (one from before the fix; skipped unless given).
// Each attacked gateway is measured against the twin in one window, echo calls alternating, until it has
// loaded the hostile source (its bundle's hash changed): echo p50, liveness probes (longest wait), peak RSS
// (VmHWM), CPU, and whether it is still running. The bounds: echo p50 within 2x of the twin, liveness
// answered, peak RSS within 1.2x, no crash.
// Usage (after `npx nx build gateway`):
//   node tools/bench/hostile-schema-size/run.mjs [--case manifest|openapi|both] [--size 10000] [--main <main.js>]
//     [--before <main.js of a build before the fix>]
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { cpuMicros, root, start, stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: 'both' },
    // Smoke: just over the default limit in both cases (6,003 values; 2,000 parameters of 5 values each).
    size: { type: 'string', default: SMOKE ? '2000' : '10000' },
    main: { type: 'string', default: path.join(root, 'dist/apps/gateway/main.js') },
    before: { type: 'string' },
    smoke: { type: 'boolean', default: false },
  },
});
const SIZE = Number(values.size);
const TTL_MILLIS = SMOKE ? 500 : 2_000;
const CASES = values.case === 'both' ? ['manifest', 'openapi'] : [values.case];

const echoTool = { name: 'echo', description: 'echo', endpoint: '/tools/echo', inputSchema: { type: 'object' } };
const patterned = {
  name: 'attack',
  description: 'attack',
  endpoint: '/attack',
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: SIZE }, (_, i) => [`p${i}`, { type: 'string', pattern: `^v${i}-[a-z]*$` }])),
  },
};
const operation = (operationId, parameters) => ({ operationId, parameters, responses: { 200: { description: 'ok' } } });
const openapi = (hostile) => ({
  openapi: '3.0.3',
  info: { title: 'echo', version: hostile ? '2' : '1' },
  paths: {
    '/echo': { get: operation('echo', []) },
    ...(hostile && {
      '/attack': {
        get: operation(
          'attack',
          Array.from({ length: SIZE }, (_, i) => ({ name: `q${i}`, in: 'query', schema: { type: 'string' } })),
        ),
      },
    }),
  },
});
const DOCUMENTS = {
  manifest: (hostile) => ({ revision: hostile ? '2' : '1', tools: hostile ? [echoTool, patterned] : [echoTool] }),
  openapi,
};

const hostile = new Set();
const server = createServer((req, res) => {
  req.resume();
  const [, gateway, kind] = req.url.split('/');
  const reply =
    kind === 'manifest' || kind === 'openapi'
      ? DOCUMENTS[kind](hostile.has(gateway))
      : kind === 'tools' // a manifest tool's call, answered in the manifest's envelope; else an OpenAPI one's
        ? { data: { echoed: true } }
        : { echoed: true };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const serviceUrl = `http://127.0.0.1:${server.address().port}`;

async function startGateway(name, kind, main) {
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-hostile-schema-size-')), 'gateway.yaml');
  const domain = `${serviceUrl}/${name}`;
  const bundle =
    kind === 'manifest'
      ? `{ name: echo, serviceDomain: "${domain}", manifestPath: /manifest }`
      : `{ name: echo, serviceDomain: "${domain}", openapi: { documentUrl: "${domain}/openapi", operations: [echo, attack] } }`;
  writeFileSync(
    config,
    `server: { port: 0, managementPort: 0 }
mcp:
  catalogue: { refreshTtlMillis: ${TTL_MILLIS}, manifestTimeoutMillis: 600000 }
  bundles: [${bundle}]
`,
  );
  const started = await start(`gateway ${name}`, [main, '--config', config], {}, /event=gateway_started (mcpUrl=\S+ managementUrl=\S+)/);
  const [, mcpUrl, managementUrl] = /mcpUrl=(\S+) managementUrl=(\S+)/.exec(started.url);
  return { name, pid: started.pid, mcpUrl, managementUrl };
}

const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
const timed = async (fn) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
const echo = (gateway) =>
  timed(async () => {
    const reply = await (await fetch(gateway.mcpUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(600_000) })).json();
    if (reply.result?.isError !== false) throw new Error(`${gateway.name}: echo failed: ${JSON.stringify(reply)}`);
  });
const liveness = (gateway) =>
  timed(async () => {
    const res = await fetch(`${gateway.managementUrl}/actuator/health/liveness`, { signal: AbortSignal.timeout(600_000) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${gateway.name}: liveness answered ${res.status}`);
  });
const proc = (gateway, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${gateway.pid}/status`, 'utf8'))[1]) / 1024;
const alive = (gateway) => {
  try {
    process.kill(gateway.pid, 0);
    return true;
  } catch {
    return false;
  }
};
const bundleOf = async (gateway) =>
  (await (await fetch(`${gateway.managementUrl}/actuator/toolBundles`, { signal: AbortSignal.timeout(600_000) })).json()).bundles[0];
const p50 = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));

/**
 * One window, from the source turning hostile until the attacked gateway has loaded it (its bundle's hash
 * changed) and one TTL more: echo calls on the twin and on `attacked` in turn, so both see the same
 * machine, and beside them liveness probes in turn, on a loop of their own, so a probe waits out whatever
 * holds the loop.
 */
async function measure(twin, attacked) {
  const goodHash = (await bundleOf(attacked)).manifestHash;
  hostile.add(attacked.name);
  const cpu = { twin: cpuMicros(twin.pid), attacked: cpuMicros(attacked.pid) };
  const samples = { twinEcho: [], echo: [], twinLive: [], live: [] };
  const windowStart = performance.now();
  let running = true;
  const probes = (async () => {
    while (running) {
      samples.twinLive.push(await liveness(twin));
      samples.live.push(await liveness(attacked).catch(() => Infinity)); // a crashed gateway: no answer
      await sleep(50);
    }
  })();
  // On a loop of its own too, so that the echo calls wait out a held loop themselves.
  let loadedAt;
  const loaded = (async () => {
    while (loadedAt === undefined) {
      const hash = alive(attacked)
        ? await bundleOf(attacked).then(
            (bundle) => bundle.manifestHash,
            () => undefined,
          )
        : undefined;
      if (hash !== goodHash) loadedAt = performance.now();
      else await sleep(50);
    }
  })();
  while (loadedAt === undefined || performance.now() - loadedAt < TTL_MILLIS) {
    samples.twinEcho.push(await echo(twin));
    samples.echo.push(await echo(attacked).catch(() => Infinity));
    await sleep(20);
  }
  running = false;
  await Promise.all([probes, loaded]);
  const bundle = alive(attacked) ? await bundleOf(attacked) : undefined;
  const result = {
    name: attacked.name,
    outcome: bundle === undefined ? 'crashed' : (bundle.refusedTools.find((tool) => tool.name === 'attack')?.code ?? 'served'),
    seconds: (performance.now() - windowStart) / 1000,
    echo: p50(samples.echo) / p50(samples.twinEcho),
    echoMax: Math.max(...samples.echo),
    live: Math.max(...samples.live.filter(Number.isFinite)),
    unanswered: samples.live.filter((value) => !Number.isFinite(value)).length,
    probes: samples.live.length,
    twinLive: Math.max(...samples.twinLive),
    cpu: (cpuMicros(attacked.pid) - cpu.attacked) / 1e6,
    twinCpu: (cpuMicros(twin.pid) - cpu.twin) / 1e6,
    hwm: proc(attacked, 'VmHWM'),
    twinHwm: proc(twin, 'VmHWM'),
    alive: alive(attacked),
  };
  hostile.delete(attacked.name);
  return result;
}

const x = (value) => `${value.toFixed(2)}x`;
for (const kind of CASES) {
  const [twin, after, before] = await Promise.all([
    startGateway(`${kind}-idle`, kind, values.main),
    startGateway(`${kind}-after`, kind, values.main),
    values.before === undefined ? undefined : startGateway(`${kind}-before`, kind, values.before),
  ]);
  for (const gateway of [twin, after, before].filter(Boolean)) {
    while (
      await echo(gateway).then(
        () => false,
        () => true,
      )
    )
      await sleep(50); // catalogue loaded
    for (let i = 0; i < (SMOKE ? 2 : 20); i++) await echo(gateway); // warm-up
  }
  const rows = [await measure(twin, after)];
  if (before) rows.push(await measure(twin, before));
  stopAll();
  const what = kind === 'manifest' ? `a manifest tool with ${SIZE} patterned properties` : `an OpenAPI operation with ${SIZE} parameters`;
  console.log(`\n${what}; every ratio against the idle twin, same window`);
  console.log(
    '| gateway | attack tool | window | echo p50 / twin (longest) | longest answered liveness (twin) | CPU in window (twin) | peak RSS (twin) | running |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.outcome} | ${row.seconds.toFixed(1)} s | ${x(row.echo)} (${row.echoMax.toFixed(0)} ms) | ${row.live.toFixed(0)} ms${row.unanswered ? `, ${row.unanswered} of ${row.probes} unanswered` : ''} (${row.twinLive.toFixed(0)} ms) | ${row.cpu.toFixed(2)} s (${row.twinCpu.toFixed(2)} s) | ${row.hwm.toFixed(0)} MiB, ${x(row.hwm / row.twinHwm)} (${row.twinHwm.toFixed(0)} MiB) | ${row.alive ? 'yes' : 'no'} |`,
    );
  }
}
server.close();
smokeRan('hostile-schema-size');
