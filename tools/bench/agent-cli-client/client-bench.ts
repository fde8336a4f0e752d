/**
 * Benchmarks of the agent's MCP layer, each against a baseline measured in the same run, printed as
 * ratios (absolute numbers drift with the machine; ratios hold). Run: `npx nx run agent-cli:bench`
 * (BENCH_SECONDS, BENCH_ROUNDS to vary). Not part of `npm test`. It runs with --no-warnings because the
 * SDK's fetch transport (a baseline) trips Node's abort-listener warning thousands of times; ours does not
 * accumulate listeners (see the comment in streamable-http-client-transport.ts).
 *
 * 1. stdio tools/call throughput, 64 in flight: the whole agent path (tool registry → McpTool → McpClient
 *    → our ChildProcessTransport) vs the SDK's own Client + StdioClientTransport on the same server
 *    (target >= 0.8x); raw JSON-RPC lines over the pipes are shown as the ceiling.
 * 2. Streamable HTTP tools/call throughput, 64 in flight: our undici transport + McpClient vs the SDK's
 *    fetch-based StreamableHTTPClientTransport (target >= 3x); raw `undici.request` is shown as the ceiling.
 * 3. Startup: ten stdio servers through the client manager (parallel, one deadline) vs the slowest one
 *    alone (target <= 1.3x); one after another is shown for contrast.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpClient } from '@toolmesh/mcp-client';
import { StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import { Agent, request } from 'undici';

import { McpClientManager, type StdioServerConfig, ToolRegistry, TransportClientFactory } from '../../../apps/agent-cli/src/bench-seam';
import { SMOKE, smokeRan } from '../smoke.mjs';

const ROOT = path.resolve(__dirname, '../../..');
const STDIO_PEER = path.join(ROOT, 'tools/test/peers/stdio-peer.mjs');
const HTTP_SERVER = path.join(ROOT, 'tools/bench/agent-cli-client/minimal-http-mcp-server.mjs');
const SECONDS = SMOKE ? 0.2 : Number(process.env.BENCH_SECONDS ?? 3);
const IN_FLIGHT = 64;
const clientInfo = { name: 'bench', version: '0' };
const ARGS = { text: 'hello' };

/** Runs `call` with IN_FLIGHT concurrent loops for SECONDS (after a warm-up) and returns calls/s. */
async function throughput(call: () => Promise<unknown>): Promise<number> {
  const loop = async (until: number) => {
    let n = 0;
    while (Date.now() < until) {
      await call();
      n += 1;
    }
    return n;
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, () => loop(Date.now() + 500)));
  const started = Date.now();
  const counts = await Promise.all(Array.from({ length: IN_FLIGHT }, () => loop(started + SECONDS * 1000)));
  return counts.reduce((a, b) => a + b, 0) / ((Date.now() - started) / 1000);
}

/** Baseline: JSON-RPC lines straight over the child's pipes, correlated by id, no MCP client at all. */
async function rawStdio(): Promise<number> {
  const child = spawn(process.execPath, [STDIO_PEER], { stdio: 'pipe' }) as ChildProcessWithoutNullStreams;
  const pending = new Map<number, () => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { id } = JSON.parse(line) as { id?: number };
    if (id !== undefined) pending.get(id)?.();
    if (id !== undefined) pending.delete(id);
  });
  let next = 0;
  const rpc = (method: string, params: object) =>
    new Promise<void>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const rate = await throughput(() => rpc('tools/call', { name: 'echo', arguments: ARGS }));
  child.kill();
  return rate;
}

/** Baseline: the MCP SDK's own client and stdio transport, as an application would use them. */
async function sdkStdio(): Promise<number> {
  const client = new Client(clientInfo);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [STDIO_PEER] }));
  const rate = await throughput(() => client.callTool({ name: 'echo', arguments: ARGS }));
  await client.close();
  return rate;
}

/** Ours: what the agent does for a tool call, from the registry lookup down to the pipe. */
async function ourStdio(): Promise<number> {
  const factory = new TransportClientFactory(clientInfo);
  const manager = new McpClientManager(factory, { warn: () => undefined });
  await manager.connectAll(servers(1));
  const registry = new ToolRegistry();
  await manager.registerAllTools(registry);
  const rate = await throughput(async () => {
    const tool = registry.get('mcp__s0__echo');
    if (!tool) throw new Error('mcp__s0__echo is not registered');
    const result = await tool.execute(ARGS);
    if (result.isError) throw new Error('the echo call failed');
  });
  await manager.close();
  await factory.close();
  return rate;
}

async function withHttpServer<T>(body: (url: string) => Promise<T>): Promise<T> {
  const server = spawn(process.execPath, [HTTP_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) =>
    server.stdout.on('data', (chunk: Buffer) => {
      const listening = /LISTENING (\S+)/.exec(chunk.toString());
      if (listening) resolve(listening[1]);
    }),
  );
  try {
    return await body(url);
  } finally {
    server.kill();
  }
}

async function rawUndici(url: string): Promise<number> {
  const pool = new Agent({ keepAliveTimeout: 30_000, connections: 16 });
  let id = 0;
  const post = async (method: string, params: object) => {
    const response = await request(url, {
      method: 'POST',
      dispatcher: pool,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'bench',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return response.body.json();
  };
  await post('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
  const rate = await throughput(() => post('tools/call', { name: 'echo', arguments: ARGS }));
  await pool.close();
  return rate;
}

async function ourHttp(url: string): Promise<number> {
  const pool = new Agent({ keepAliveTimeout: 30_000, connections: 16 });
  const client = new McpClient(new StreamableHttpClientTransport(new URL(url), { dispatcher: pool, listen: false }), {
    serverName: 'bench',
    clientInfo,
    requestTimeoutMs: 30_000,
  });
  await client.connect();
  const rate = await throughput(() => client.callTool('echo', ARGS));
  await client.close();
  await pool.close();
  return rate;
}

async function sdkHttp(url: string): Promise<number> {
  const client = new Client(clientInfo);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const rate = await throughput(() => client.callTool({ name: 'echo', arguments: ARGS }));
  await client.close();
  return rate;
}

const servers = (n: number, flags: string[] = []): StdioServerConfig[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `s${i}`,
    transport: 'stdio',
    command: process.execPath,
    args: [STDIO_PEER, ...flags],
    env: {},
    requestTimeoutMs: 30_000,
    annotationTrust: 'ignore',
  }));

async function startupMs(count: number, parallel = true, flags: string[] = []): Promise<number> {
  const factory = new TransportClientFactory(clientInfo);
  const manager = new McpClientManager(factory, { warn: () => undefined });
  const started = Date.now();
  if (parallel) {
    await manager.connectAll(servers(count, flags));
  } else {
    for (const config of servers(count, flags)) await manager.connectAll([config]);
  }
  const elapsed = Date.now() - started;
  await manager.close();
  await factory.close();
  return elapsed;
}

const ROUNDS = SMOKE ? 1 : Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * Measures baseline and ours alternately, ROUNDS times, and keeps the median of each: on a shared
 * two-core machine a single run of either can be slowed by anything else running.
 */
async function pair(baseline: () => Promise<number>, ours: () => Promise<number>): Promise<[number, number]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(await baseline());
    b.push(await ours());
  }
  return [median(a), median(b)];
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)];
}

function row(what: string, baselineName: string, baseline: number, ours: number, unit: string, higherIsBetter = true): void {
  const ratio = higherIsBetter ? ours / baseline : baseline / ours;
  console.log(
    `${what.padEnd(44)} ours ${ours.toFixed(0).padStart(7)} ${unit}   ${baselineName} ${baseline.toFixed(0).padStart(7)} ${unit}   ratio ${ratio.toFixed(2)}`,
  );
}

async function main(): Promise<void> {
  console.log(
    `agent-cli MCP layer benchmark: ${IN_FLIGHT} calls in flight, ${SECONDS} s per measurement, median of ${ROUNDS} alternating rounds, node ${process.version}\n`,
  );
  const [sdkStdioRate, ourStdioRate] = await pair(sdkStdio, ourStdio);
  row('stdio tools/call via registry+McpTool (vs SDK)', 'sdk', sdkStdioRate, ourStdioRate, 'calls/s');
  const [rawStdioRate, ourStdioRate2] = await pair(rawStdio, ourStdio);
  row('stdio tools/call (vs raw JSON-RPC on pipes)', 'raw', rawStdioRate, ourStdioRate2, 'calls/s');
  await withHttpServer(async (url) => {
    const [rawRate, ourRate] = await pair(
      () => rawUndici(url),
      () => ourHttp(url),
    );
    row('HTTP tools/call (vs raw undici.request)', 'raw', rawRate, ourRate, 'calls/s');
    const [sdkRate, ourRate2] = await pair(
      () => sdkHttp(url),
      () => ourHttp(url),
    );
    row('HTTP tools/call (vs SDK fetch transport)', 'sdk', sdkRate, ourRate2, 'calls/s');
  });
  // All servers are the same peer, so "the slowest one alone" is one server alone. A peer that is ready
  // after 500 ms of waiting stands for servers whose start is latency-bound (package resolution, a
  // database or an API to reach); the bare peer's start is CPU-bound, and ten of those share two cores.
  for (const [label, flags] of [
    ['500 ms to ready', ['--initialize-delay=500']],
    ['bare, CPU-bound', []],
  ] as const) {
    const [alone, ten] = await pair(
      () => startupMs(1, true, [...flags]),
      () => startupMs(10, true, [...flags]),
    );
    console.log(
      `${`startup, 10 servers vs 1 alone (${label})`.padEnd(44)} ours ${ten.toFixed(0).padStart(7)} ms   alone ${alone.toFixed(0).padStart(7)} ms   ratio ${(ten / alone).toFixed(2)} (target <= 1.3)`,
    );
  }
  const [sequential, parallel] = await pair(
    () => startupMs(10, false),
    () => startupMs(10),
  );
  row('startup, 10 stdio servers (vs sequential)', 'seq', sequential, parallel, 'ms', false);
  console.log('\nthroughput ratio: ours/baseline (> 1 faster); startup vs sequential: baseline/ours (> 1 faster)');
}

// an unhandled rejection ends the process with an error, as a failed benchmark should
void main().then(() => smokeRan('agent-cli-client'));
