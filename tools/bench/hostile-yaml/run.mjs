#!/usr/bin/env node
// Hostile YAML benchmark (issue 43, item 3): a bundle's OpenAPI document turns into 2 MB of nested YAML
// flow sequences, fetched again at every 2 s TTL. Three built gateways run side by side, each with one
// OpenAPI bundle whose `echo` operation this script serves:
//   - the idle twin, whose document stays good: the baseline of every ratio;
//   - "after": the same gateway whose document turns hostile, with the default YAML limits;
//   - "before": the same again with the limits set out of reach (mcp.catalogue.maxYamlDepth and
//     maxYamlNodes at 10^9), which composes the document as the gateway did before the limits.
// Each attacked gateway is measured against the twin in one window, calls alternating: echo p50, liveness
// probes (longest wait), peak RSS (VmHWM), CPU, and whether it is still running. The bounds: echo p50
// within 2x of the twin, liveness answered, peak RSS within 1.2x, no crash.
// Usage (after `npx nx build gateway`): node tools/bench/hostile-yaml/run.mjs [--ttls 5] [--mb 2] [--no-before]
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { cpuMicros, root, start, stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';

const { values } = parseArgs({
  options: {
    ttls: { type: 'string', default: SMOKE ? '1' : '5' },
    mb: { type: 'string', default: SMOKE ? '0.05' : '2' },
    'no-before': { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
  },
});
const TTL_MILLIS = 2_000;
const WINDOW_MILLIS = Number(values.ttls) * TTL_MILLIS;
const DEPTH = Math.floor((Number(values.mb) * 1_048_576) / 2);

const GOOD = `openapi: 3.0.3
info: { title: echo, version: "1" }
paths:
  /echo:
    get:
      operationId: echo
      responses: { "200": { description: ok, content: { application/json: { schema: { type: object } } } } }
`;
const HOSTILE = `openapi: 3.0.3\ninfo: { title: echo, version: "2" }\npaths: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`;
const hostile = new Set();
const server = createServer((req, res) => {
  req.resume();
  const [, gateway, file] = req.url.split('/');
  if (file === 'openapi.yaml') res.writeHead(200, { 'content-type': 'application/yaml' }).end(hostile.has(gateway) ? HOSTILE : GOOD);
  else res.writeHead(200, { 'content-type': 'application/json' }).end('{"echoed":true}');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const serviceUrl = `http://127.0.0.1:${server.address().port}`;

async function startGateway(name, catalogue = '') {
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-hostile-yaml-')), 'gateway.yaml');
  writeFileSync(
    config,
    `server: { port: 0, managementPort: 0 }
mcp:
  catalogue: { refreshTtlMillis: ${TTL_MILLIS}, manifestTimeoutMillis: 30000${catalogue} }
  bundles: [{ name: echo, serviceDomain: "${serviceUrl}/${name}", openapi: { documentUrl: "${serviceUrl}/${name}/openapi.yaml", operations: [echo] } }]
`,
  );
  const started = await start(
    `gateway ${name}`,
    [path.join(root, 'dist/apps/gateway/main.js'), '--config', config],
    {},
    /event=gateway_started (mcpUrl=\S+ managementUrl=\S+)/,
  );
  const [, mcpUrl, managementUrl] = /mcpUrl=(\S+) managementUrl=(\S+)/.exec(started.url);
  return { name, pid: started.pid, mcpUrl, managementUrl };
}

const twin = await startGateway('idle');
const after = await startGateway('after');
const before = values['no-before'] ? undefined : await startGateway('before', ', maxYamlDepth: 1000000000, maxYamlNodes: 1000000000');

const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
const timed = async (fn) => {
  const started = performance.now();
  await fn();
  return performance.now() - started;
};
const echo = (gateway) =>
  timed(async () => {
    const reply = await (await fetch(gateway.mcpUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(300_000) })).json();
    if (reply.result?.isError !== false) throw new Error(`${gateway.name}: echo failed: ${JSON.stringify(reply)}`);
  });
const liveness = (gateway) =>
  timed(async () => {
    const res = await fetch(`${gateway.managementUrl}/actuator/health/liveness`, { signal: AbortSignal.timeout(300_000) });
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
const lastError = async (gateway) => {
  if (!alive(gateway)) return 'crashed';
  const status = await (await fetch(`${gateway.managementUrl}/actuator/toolBundles`, { signal: AbortSignal.timeout(300_000) })).json();
  return status.bundles[0].lastError?.code ?? 'none';
};
const p50 = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));

for (const gateway of [twin, after, before].filter(Boolean)) {
  while (
    await echo(gateway).then(
      () => false,
      () => true,
    )
  )
    await sleep(50); // catalogue loaded
  for (let i = 0; i < 20; i++) await echo(gateway); // warm-up
}

/**
 * One window of at least `WINDOW_MILLIS`, and until the attacked gateway has refused the document at
 * least once: echo calls on the twin and on `attacked` in turn, so both see the same machine, and beside
 * them liveness probes in turn, on a loop of their own, so a probe waits out whatever holds the loop.
 */
async function measure(attacked) {
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
  while (performance.now() - windowStart < WINDOW_MILLIS || (await lastError(attacked)) === 'none') {
    samples.twinEcho.push(await echo(twin));
    samples.echo.push(await echo(attacked).catch(() => Infinity));
    await sleep(20);
  }
  running = false;
  await probes;
  const seconds = (performance.now() - windowStart) / 1000;
  const result = {
    name: attacked.name,
    code: await lastError(attacked),
    seconds,
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

const rows = [await measure(after)];
if (before) rows.push(await measure(before));
stopAll();
server.close();

const x = (value) => `${value.toFixed(2)}x`;
console.log(`2 MB of nested YAML (${DEPTH} levels), fetched at every ${TTL_MILLIS} ms TTL; every ratio against the idle twin, same window`);
console.log(
  '| gateway | refused as | window | echo p50 / twin (longest) | longest answered liveness (twin) | CPU in window (twin) | peak RSS (twin) | running |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.code} | ${row.seconds.toFixed(1)} s | ${x(row.echo)} (${row.echoMax.toFixed(0)} ms) | ${row.live.toFixed(0)} ms${row.unanswered ? `, ${row.unanswered} of ${row.probes} unanswered` : ''} (${row.twinLive.toFixed(0)} ms) | ${row.cpu.toFixed(2)} s (${row.twinCpu.toFixed(2)} s) | ${row.hwm.toFixed(0)} MiB, ${x(row.hwm / row.twinHwm)} (${row.twinHwm.toFixed(0)} MiB) | ${row.alive ? 'yes' : 'no'} |`,
  );
}
smokeRan('hostile-yaml');
