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
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import { stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';
import { alive, measureWindow, printWindows, servedAndWarm, startGateway, timedCall } from '../twin-run.mjs';

const { values } = parseArgs({
  options: {
    ttls: { type: 'string', default: SMOKE ? '1' : '5' },
    mb: { type: 'string', default: SMOKE ? '0.05' : '2' },
    'no-before': { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
  },
});
const TTL_MILLIS = SMOKE ? 500 : 2_000;
const WINDOW_MILLIS = Number(values.ttls) * TTL_MILLIS;
const DEPTH = Math.floor((Number(values.mb) * 1_048_576) / 2);
/** A call, a probe or a status read not answered within this fails the run. */
const ANSWER_TIMEOUT_MILLIS = 300_000;

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

const gatewayYaml = (name, catalogue = '') => `mcp:
  catalogue: { refreshTtlMillis: ${TTL_MILLIS}, manifestTimeoutMillis: 30000${catalogue} }
  bundles: [{ name: echo, serviceDomain: "${serviceUrl}/${name}", openapi: { documentUrl: "${serviceUrl}/${name}/openapi.yaml", operations: [echo] } }]
`;
const twin = await startGateway('idle', gatewayYaml('idle'));
const after = await startGateway('after', gatewayYaml('after'));
const before = values['no-before']
  ? undefined
  : await startGateway('before', gatewayYaml('before', ', maxYamlDepth: 1000000000, maxYamlNodes: 1000000000'));

const echo = (gateway) => timedCall(gateway, 'echo', {}, ANSWER_TIMEOUT_MILLIS);
const lastError = async (gateway) => {
  if (!alive(gateway)) return 'crashed';
  const status = await (
    await fetch(`${gateway.managementUrl}/actuator/toolBundles`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MILLIS) })
  ).json();
  return status.bundles[0].lastError?.code ?? 'none';
};

await servedAndWarm([twin, after, before].filter(Boolean), echo, { warmUps: SMOKE ? 2 : 20 });

/**
 * One window of at least `WINDOW_MILLIS`, and until the attacked gateway has refused the document at
 * least once.
 */
async function measure(attacked) {
  hostile.add(attacked.name);
  const windowStart = performance.now();
  const row = await measureWindow(twin, attacked, {
    call: echo,
    probeTimeoutMillis: ANSWER_TIMEOUT_MILLIS,
    open: async () => performance.now() - windowStart < WINDOW_MILLIS || (await lastError(attacked)) === 'none',
  });
  row.outcome = await lastError(attacked);
  hostile.delete(attacked.name);
  return row;
}

const rows = [await measure(after)];
if (before) rows.push(await measure(before));
stopAll();
server.close();

console.log(`2 MB of nested YAML (${DEPTH} levels), fetched at every ${TTL_MILLIS} ms TTL; every ratio against the idle twin, same window`);
printWindows('refused as', rows);
smokeRan('hostile-yaml');
