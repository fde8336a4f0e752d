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
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { root, stopAll } from '../gateway/processes.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';
import { alive, measureWindow, printWindows, servedAndWarm, sleep, startGateway, timedCall } from '../twin-run.mjs';

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
/** A call, a probe or a status read not answered within this fails the run. */
const ANSWER_TIMEOUT_MILLIS = 600_000;

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

function gatewayYaml(name, kind) {
  const domain = `${serviceUrl}/${name}`;
  const bundle =
    kind === 'manifest'
      ? `{ name: echo, serviceDomain: "${domain}", manifestPath: /manifest }`
      : `{ name: echo, serviceDomain: "${domain}", openapi: { documentUrl: "${domain}/openapi", operations: [echo, attack] } }`;
  return `mcp:
  catalogue: { refreshTtlMillis: ${TTL_MILLIS}, manifestTimeoutMillis: 600000 }
  bundles: [${bundle}]
`;
}

const echo = (gateway) => timedCall(gateway, 'echo', {}, ANSWER_TIMEOUT_MILLIS);
const bundleOf = async (gateway) =>
  (await (await fetch(`${gateway.managementUrl}/actuator/toolBundles`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MILLIS) })).json())
    .bundles[0];

/**
 * One window, from the source turning hostile until the attacked gateway has loaded it (its bundle's hash
 * changed) and one TTL more.
 */
async function measure(twin, attacked) {
  const goodHash = (await bundleOf(attacked)).manifestHash;
  hostile.add(attacked.name);
  // On a loop of its own, so that the echo calls wait out a held loop themselves.
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
  const row = await measureWindow(twin, attacked, {
    call: echo,
    probeTimeoutMillis: ANSWER_TIMEOUT_MILLIS,
    open: () => loadedAt === undefined || performance.now() - loadedAt < TTL_MILLIS,
  });
  await loaded;
  const bundle = alive(attacked) ? await bundleOf(attacked) : undefined;
  row.outcome = bundle === undefined ? 'crashed' : (bundle.refusedTools.find((tool) => tool.name === 'attack')?.code ?? 'served');
  hostile.delete(attacked.name);
  return row;
}

for (const kind of CASES) {
  const [twin, after, before] = await Promise.all([
    startGateway(`${kind}-idle`, gatewayYaml(`${kind}-idle`, kind), { main: values.main }),
    startGateway(`${kind}-after`, gatewayYaml(`${kind}-after`, kind), { main: values.main }),
    values.before === undefined ? undefined : startGateway(`${kind}-before`, gatewayYaml(`${kind}-before`, kind), { main: values.before }),
  ]);
  await servedAndWarm([twin, after, before].filter(Boolean), echo, { warmUps: SMOKE ? 2 : 20 });
  const rows = [await measure(twin, after)];
  if (before) rows.push(await measure(twin, before));
  stopAll();
  const what = kind === 'manifest' ? `a manifest tool with ${SIZE} patterned properties` : `an OpenAPI operation with ${SIZE} parameters`;
  console.log(`\n${what}; every ratio against the idle twin, same window`);
  printWindows('attack tool', rows);
}
server.close();
smokeRan('hostile-schema-size');
