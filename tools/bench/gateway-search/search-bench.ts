/**
 * Gateway search (docs/benchmarks.md, "Gateway search"; G30): `search_tools` over a catalogue of 10,000
 * synthetic tools (tools/test/synthetic-tool-catalogue.ts), measured against a `tools/list` of the same
 * catalogue, the baseline, in the same run, against the same built gateway process:
 *
 * 1. In process: the ranked index alone (ToolSearchIndex, what the gateway holds): indexing the catalogue
 *    at once (`sync`) and in slices (`syncInSlices`, what the gateway does), each with the event loop's
 *    longest stall meanwhile; then the fixed query set (tools/test/tool-search-queries.json) round after
 *    round: p50 and p99 of one search (goal p99 < 5 ms) and CPU time per search.
 * 2. Over HTTP, one request at a time: `search_tools` (limit 10) cycling through the query set, then
 *    `tools/list` (the whole catalogue in one page): client-side p50 / p99 latency and the gateway
 *    process's CPU time per request (utime + stime from /proc), each printed with its ratio to tools/list.
 *
 * Run: `node tools/bench/gateway-search/run.mjs` after `npx nx build gateway` (ROUNDS to vary).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { ToolSearchIndex } from '@toolmesh/protocol';
import { syntheticTools } from '@toolmesh/test-peers/synthetic-tool-catalogue';
import queries from '@toolmesh/test-peers/tool-search-queries.json';

import { SMOKE, smokeRan } from '../smoke.mjs';

const root = path.resolve(__dirname, '../../..');
const TOOLS = SMOKE ? 500 : 10_000;
const ROUNDS = SMOKE ? 1 : Number(process.env.ROUNDS ?? 20);
const WARMUP_ROUNDS = SMOKE ? 1 : 10;
const LIST_REQUESTS = SMOKE ? 2 : 50;
const QUERIES = queries.queries.map((entry) => entry.query);

interface Figures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuMsPerRequest?: number;
}

// The gateway benches' helpers (../gateway/processes.mjs) read import.meta, which this CommonJS bundle has
// not: what this bench needs of them, the gateway as a process and its CPU time, is here.
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User plus system CPU time of a process so far, all its threads, in microseconds (from /proc: Linux only). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
}

/** The built gateway with `config`; resolves with its MCP URL once it serves. */
function startGateway(config: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(root, 'dist/apps/gateway/main.js'), '--config', config], {
    cwd: root,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /event=gateway_started mcpUrl=(\S+)/.exec(output);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}: ${output.slice(-500)}`)));
  });
}

/** A 2025 request (the era tools/list is most often measured in, docs/benchmarks.md). */
function mcpRequest(method: string, params?: Record<string, unknown>): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params && { params }) }),
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function figures(samples: number[], cpuMicrosTotal?: number): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50Ms: Number(percentile(sorted, 50).toFixed(3)),
    p99Ms: Number(percentile(sorted, 99).toFixed(3)),
    ...(cpuMicrosTotal !== undefined && { cpuMsPerRequest: Number((cpuMicrosTotal / 1000 / samples.length).toFixed(3)) }),
  };
}

/** Indexing the whole catalogue one way: its wall-clock time and the event loop's longest stall meanwhile. */
async function indexing(index: () => unknown): Promise<{ ms: number; longestStallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await new Promise((resolve) => setTimeout(resolve, 20)); // the monitor records from its second tick on
  const begin = performance.now();
  await index();
  const ms = performance.now() - begin;
  await new Promise((resolve) => setTimeout(resolve, 20)); // the loop turns, and the delay of the last stall is sampled
  delay.disable();
  return { ms: Number(ms.toFixed(1)), longestStallMs: Number((delay.max / 1e6).toFixed(1)) };
}

async function inProcess(catalogue: ReturnType<typeof syntheticTools>) {
  const atOnce = await indexing(() => new ToolSearchIndex<(typeof catalogue)[number]>().sync(catalogue));
  const index = new ToolSearchIndex<(typeof catalogue)[number]>();
  const inSlices = await indexing(() => index.syncInSlices(catalogue));
  for (const query of QUERIES) index.search(query, 10); // warm-up
  const samples: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let round = 0; round < ROUNDS * 4; round++)
    for (const query of QUERIES) {
      const begin = performance.now();
      index.search(query, 10);
      samples.push(performance.now() - begin);
    }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerSearch = Number(((cpu.user + cpu.system) / 1000 / samples.length).toFixed(3));
  return { ...figures(samples), atOnce, inSlices, cpuMsPerSearch };
}

async function serveManifest(manifest: unknown): Promise<{ url: string; close: () => void }> {
  const body = JSON.stringify(manifest);
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** `count` requests one after another; latency per request and the gateway's CPU time over all of them. */
async function measure(url: string, pid: number, count: number, next: (i: number) => { headers: Record<string, string>; body: string }) {
  await new Promise((resolve) => setTimeout(resolve, 500)); // the previous phase's garbage collected, mostly
  const samples: number[] = [];
  const cpuBefore = cpuMicros(pid);
  for (let i = 0; i < count; i++) {
    const { headers, body } = next(i);
    const begin = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body });
    const text = await res.text();
    samples.push(performance.now() - begin);
    if (res.status !== 200 || text.includes('"error"')) throw new Error(`request ${i} failed: ${text.slice(0, 200)}`);
  }
  return figures(samples, cpuMicros(pid) - cpuBefore);
}

async function main(): Promise<void> {
  const catalogue = syntheticTools(TOOLS);
  const index = await inProcess(catalogue);
  console.log(`\n${TOOLS} tools, ${QUERIES.length} queries, node ${process.version}`);
  console.log(
    `indexing at once: ${index.atOnce.ms} ms, longest event-loop stall ${index.atOnce.longestStallMs} ms; ` +
      `in slices: ${index.inSlices.ms} ms, longest stall ${index.inSlices.longestStallMs} ms ` +
      `(${(index.inSlices.longestStallMs / index.atOnce.longestStallMs).toFixed(3)}x)`,
  );
  console.log(`index alone: one search p50 ${index.p50Ms} ms, p99 ${index.p99Ms} ms (goal p99 < 5 ms), CPU ${index.cpuMsPerSearch} ms`);

  const service = await serveManifest({
    revision: 'bench',
    tools: catalogue.map((tool) => ({ ...tool, endpoint: `/tools/${tool.name}` })),
  });
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-bench-search-')), 'gateway.yaml');
  writeFileSync(
    config,
    `server: { port: 0, managementPort: 0 }
mcp:
  toolSearch: true
  bundles: [{ name: bench, serviceDomain: "${service.url}", manifestPath: /tool-manifest }]
  catalogue: { maxTools: 20000, toolsListPageSize: 20000, maxSerializedBytes: 67108864, maxManifestBytes: 67108864, manifestTimeoutMillis: 30000 }
`,
  );
  let gatewayProcess: ChildProcess | undefined;
  try {
    const gateway = await startGateway(config);
    gatewayProcess = gateway.child;
    const pid = gateway.child.pid as number;
    const list = mcpRequest('tools/list');
    const search = (i: number) =>
      mcpRequest('tools/call', { name: 'search_tools', arguments: { query: QUERIES[i % QUERIES.length], limit: 10 } });
    // Load and index, then warm up as the other benches do: the first rounds of a fresh process run while V8
    // still compiles the path, and a p99 of a few hundred requests is made of exactly such outliers.
    for (let i = 0; i < WARMUP_ROUNDS * QUERIES.length; i++) await fetch(gateway.url, { method: 'POST', ...search(i) });
    for (let i = 0; i < 3; i++) await fetch(gateway.url, { method: 'POST', ...list });
    const searched = await measure(gateway.url, pid, ROUNDS * QUERIES.length, search);
    const listed = await measure(gateway.url, pid, LIST_REQUESTS, () => list);
    // The least a request costs on the same gateway: its p99 shows what the process's heap (10,000 tools and
    // their validators) adds to any request, search or not (GC pauses), apart from what search costs.
    const pinged = await measure(gateway.url, pid, ROUNDS * QUERIES.length, () => mcpRequest('ping'));
    const ratio = (a = 0, b = 1) => (a / b).toFixed(3);
    console.log(
      `search_tools over HTTP: p50 ${searched.p50Ms} ms, p99 ${searched.p99Ms} ms, gateway CPU ${searched.cpuMsPerRequest} ms per request`,
    );
    console.log(
      `tools/list (baseline):  p50 ${listed.p50Ms} ms, p99 ${listed.p99Ms} ms, gateway CPU ${listed.cpuMsPerRequest} ms per request`,
    );
    console.log(
      `ping (the floor):       p50 ${pinged.p50Ms} ms, p99 ${pinged.p99Ms} ms, gateway CPU ${pinged.cpuMsPerRequest} ms per request`,
    );
    console.log(
      `search / tools/list: p99 latency ${ratio(searched.p99Ms, listed.p99Ms)}x, CPU per request ${ratio(searched.cpuMsPerRequest, listed.cpuMsPerRequest)}x`,
    );
    if (!SMOKE) {
      mkdirSync(path.join(root, 'tmp/bench'), { recursive: true });
      writeFileSync(
        path.join(root, 'tmp/bench/gateway-search.json'),
        `${JSON.stringify({ tools: TOOLS, rounds: ROUNDS, index, searched, listed, pinged }, null, 2)}\n`,
      );
    }
  } finally {
    gatewayProcess?.kill('SIGTERM');
    service.close();
  }
}

main().then(
  () => smokeRan('gateway-search'),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
