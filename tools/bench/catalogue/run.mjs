#!/usr/bin/env node
// Catalogue benchmark (docs/benchmarks.md, "Catalogue refresh under load"): a 10,000-tool catalogue refreshing while the gateway serves
// tools/call load. Two runs of the built gateway against the same 10,000-tool bench tool service:
//   steady:     manifest TTL of 10 minutes, so no refresh happens while measuring;
//   refreshing: manifest TTL of REFRESH_TTL ms and a manifest that changes on every fetch, so the gateway
//               fetches, validates, merges and installs a new 10,000-tool generation again and again
//               while serving.
// Event-loop delay is measured inside the gateway process (event-loop-probe.mjs, loaded with --import);
// throughput and latency by autocannon. Usage: npx nx run gateway:bench-catalogue [-- --duration 10 --connections 16]
import '../usage.mjs';

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import { SMOKE, SMOKE_SECONDS, smokeRan } from '../smoke.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '../../..');
const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: SMOKE ? SMOKE_SECONDS : '10' },
    connections: { type: 'string', default: '16' },
    'refresh-ttl': { type: 'string', default: '1000' },
    smoke: { type: 'boolean', default: false },
  },
});
const duration = Number(options.duration);
const connections = Number(options.connections);
const refreshTtl = Number(options['refresh-ttl']);
const TOOLS = SMOKE ? 1_000 : 10_000;
const children = [];

function start(label, args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`${label} exited with ${code ?? signal}`);
  });
  return { label, child, output: () => output };
}

/** The first match of `pattern` in the process's output; fails once the process has ended without one (a gateway that could not start). */
async function waitFor(process, pattern) {
  for (;;) {
    const match = pattern.exec(process.output());
    if (match) return match;
    if (process.child.exitCode !== null || process.child.signalCode !== null)
      throw new Error(`${process.label} ended before printing ${pattern}: ${process.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
const callBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'tool_0004', arguments: { text: 'hello' } },
});
const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

async function scenario(name, toolService, ttlMillis) {
  // one tools/list page (toolsListPageSize), so that the check below sees the whole list
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-bench-catalogue-')), 'gateway.yaml');
  writeFileSync(
    config,
    `server: { port: 0, managementPort: 0 }
mcp:
  bundles: [{ name: bench, serviceDomain: "${toolService}", manifestPath: /tool-manifest }]
  catalogue: { refreshTtlMillis: ${ttlMillis}, maxTools: 20000, toolsListPageSize: 20000, maxSerializedBytes: 67108864, maxManifestBytes: 67108864, manifestTimeoutMillis: 30000 }
`,
  );
  const gateway = start(
    'gateway',
    ['--import', path.join(here, 'event-loop-probe.mjs'), path.join(root, 'dist/apps/gateway/main.js'), '--config', config],
    {},
  );
  const [, url] = await waitFor(gateway, /event=gateway_started mcpUrl=(\S+)/);
  const list = await (await fetch(url, { method: 'POST', headers, body: listBody })).text();
  if (!list.includes(`tool_${String(TOOLS - 1).padStart(4, '0')}`))
    throw new Error(`${name}: the gateway does not list ${TOOLS} tools: ${list.slice(0, 200)}`);
  // Warm-up; not under --smoke, whose measured run goes the same way.
  if (!SMOKE) await autocannon({ url, method: 'POST', headers, body: callBody, connections, duration: 2 });
  const installedBefore = (gateway.output().match(/event=catalogue_generation_installed/g) ?? []).length;
  gateway.child.kill('SIGUSR2'); // opens the measured window
  await waitFor(gateway, /event_loop_delay/);
  const probeLines = () => gateway.output().match(/event_loop_delay p50=(\S+) p99=(\S+) max=(\S+)/g) ?? [];
  const r = await autocannon({ url, method: 'POST', headers, body: callBody, connections, duration });
  gateway.child.kill('SIGUSR2'); // closes it
  while (probeLines().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  const [, p50, p99, max] = /p50=(\S+) p99=(\S+) max=(\S+)/.exec(probeLines()[1]);
  const generations = (gateway.output().match(/event=catalogue_generation_installed/g) ?? []).length - installedBefore;
  gateway.child.kill('SIGTERM');
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx replies`);
  const row = {
    name,
    reqPerSec: Math.round(r.requests.average),
    p99Ms: r.latency.p99,
    loopP50Ms: Number(p50),
    loopP99Ms: Number(p99),
    loopMaxMs: Number(max),
    generations,
  };
  console.log(
    `${name.padEnd(12)} ${String(row.reqPerSec).padStart(7)} req/s  p99 ${String(row.p99Ms).padStart(4)} ms   event loop p50 ${p50} ms  p99 ${p99} ms  max ${max} ms   ${generations} new 10,000-tool generations`,
  );
  return row;
}

try {
  const fixed = start('tool service', [path.join(root, 'tools/bench/gateway/bench-tool-service.mjs')], { TOOLS: String(TOOLS) });
  const varying = start('tool service', [path.join(root, 'tools/bench/gateway/bench-tool-service.mjs')], {
    TOOLS: String(TOOLS),
    VARY_MANIFEST: '1',
  });
  const [, fixedUrl] = await waitFor(fixed, /listening on (\S+)/);
  const [, varyingUrl] = await waitFor(varying, /listening on (\S+)/);
  console.log(
    `\n${TOOLS} tools, ${connections} connections, ${duration} s per scenario, refresh TTL ${refreshTtl} ms, node ${process.version}\n`,
  );
  const steady = await scenario('steady', fixedUrl, 600_000);
  const refreshing = await scenario('refreshing', varyingUrl, refreshTtl);
  const ratio = refreshing.reqPerSec / steady.reqPerSec;
  console.log(`\nthroughput refreshing / steady   ${ratio.toFixed(2)}x  (target >= 0.5x)`);
  console.log(`event-loop delay p99 refreshing  ${refreshing.loopP99Ms} ms  (target < 50 ms)`);
  if (!SMOKE) mkdirSync(path.join(root, 'tmp/bench'), { recursive: true });
  if (!SMOKE)
    writeFileSync(
      path.join(root, 'tmp/bench/catalogue.json'),
      `${JSON.stringify({ tools: TOOLS, connections, duration, refreshTtl, rows: [steady, refreshing], ratio }, null, 2)}\n`,
    );
} finally {
  for (const child of children) child.kill('SIGTERM');
}
smokeRan('catalogue');
