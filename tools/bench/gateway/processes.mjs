// The processes of the gateway benchmarks (run.mjs, cpu-per-call.mjs): started with a minimal
// environment, stopped together, each announcing its URL on standard output.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { SMOKE } from '../smoke.mjs';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.join(here, '../../..');
const children = [];
// A benchmark stopped by Ctrl-C or a signal takes its servers with it: none outlives its owner.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopAll();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}
// So does one that fails (a server that does not start, an error thrown): a server left running would
// hold the caller's stderr (theirs is inherited), and the run would never be over for it.
process.once('exit', () => stopAll());

/**
 * Starts `node ...args` and resolves with the first capture group of `ready` in its output, then keeps
 * draining its output, as a log collector would. Resolves `{ url, pid, output }`: `output()` is everything
 * written so far when `keepOutput` is set (a benchmark that reads V8's --trace-gc lines), else the output
 * up to the ready line.
 */
export function start(label, args, env, ready, nodeOptions = [], { keepOutput = false } = {}) {
  const child = spawn(process.execPath, [...nodeOptions, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        if (!keepOutput) {
          child.stdout.off('data', onData);
          child.stdout.resume();
        }
        resolve({ url: match[1], pid: child.pid, output: () => output });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}: ${output}`)));
  });
}

/**
 * A redis-server of the benchmark's own on a free loopback port, without persistence: `{ url }`. Rejects
 * with what to install when there is none.
 */
export async function startRedisServer() {
  const port = await new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
    probe.once('error', reject);
  });
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('error', (error) =>
      reject(new Error(`redis-server could not be started (${error.message}); install it, e.g. apt-get install -y redis-server`)),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return { url: `redis://127.0.0.1:${port}` };
}

export function startToolService(tools) {
  return start(
    `tool service (${tools} tools)`,
    [path.join(here, 'bench-tool-service.mjs')],
    { TOOLS: String(tools) },
    /listening on (\S+)/,
  );
}

/**
 * The built gateway with one bundle, the bench tool service. `main` defaults to this checkout's build
 * (dist/apps/gateway/main.js); cpu-per-call.mjs --compare passes another build. `bundle` replaces the
 * bundle's source (YAML of its members, e.g. an `mcpServer`).
 */
export function startGateway(
  toolService,
  {
    main = path.join(root, 'dist/apps/gateway/main.js'),
    nodeOptions = [],
    env = {},
    extraYaml = '',
    bundle = `serviceDomain: "${toolService}", manifestPath: /tool-manifest`,
    keepOutput = false,
  } = {},
) {
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-bench-')), 'gateway.yaml');
  writeFileSync(config, `server: { port: 0, managementPort: 0 }\nmcp:\n  bundles: [{ name: bench, ${bundle} }]\n${extraYaml}`);
  return start('gateway', [main, '--config', config], env, /event=gateway_started mcpUrl=(\S+)/, nodeOptions, { keepOutput });
}

export function startMinimalProxy(toolService) {
  return start('minimal proxy', [path.join(here, 'minimal-proxy.mjs')], { TOOL_SERVICE_URL: toolService }, /listening on (\S+)/);
}

/** The federation benchmark's MCP server (both eras) and the bare MCP forwarder in front of it (tools/bench/gateway-federation). */
export function startBenchMcpServer() {
  return start('bench MCP server', [path.join(here, '../gateway-federation/bench-mcp-server.mjs')], {}, /listening on (\S+)/);
}

export function startMcpForwarder(mcpServer) {
  return start(
    'MCP forwarder',
    [path.join(here, '../gateway-federation/mcp-forwarder.mjs')],
    { MCP_SERVER_URL: mcpServer },
    /listening on (\S+)/,
  );
}

/**
 * A baseline's forwarding plus the gateway's required per-call work, inline (required-work-floor.mjs).
 * `env`: its upstream (`TOOL_SERVICE_URL` or `MCP_SERVER_URL`), and FLOOR_WITHOUT, FLOOR_ISSUER, FLOOR_AUDIENCE.
 */
export function startRequiredWorkFloor(env) {
  return start('required-work floor', [path.join(here, 'required-work-floor.mjs')], env, /listening on (\S+)/);
}

export function startSdkRecipe(toolService) {
  return start('SDK recipe', [path.join(here, 'sdk-recipe-gateway.mjs')], { TOOL_SERVICE_URL: toolService }, /listening on (\S+)/);
}

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User plus system CPU time of a process so far, all its threads, in microseconds (from /proc, so Linux only). */
export const cpuMicros = (pid) => statCpuMicros(`/proc/${pid}/stat`);

/** The same for the process's main thread alone: the rest is V8's background compiler and GC helpers. */
export const mainThreadCpuMicros = (pid) => statCpuMicros(`/proc/${pid}/task/${pid}/stat`);

function statCpuMicros(statPath) {
  const stat = readFileSync(statPath, 'utf8');
  // The fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
}

/**
 * Resolves once the processes started here are quiet together (under 5% of a core for 200 ms), at most
 * after 15 s. A server that fell behind keeps working through its backlog after the load generator stops
 * (the SDK recipe on 1,000 tools does for about a second); without this, the next scenario would be
 * measured on a machine still busy with the previous one. A smoke run measures nothing: it does not wait.
 */
export async function settle() {
  if (SMOKE) return;
  const windowMillis = 200;
  const busy = () => children.reduce((sum, child) => sum + (child.exitCode === null ? cpuMicros(child.pid) : 0), 0);
  const giveUpAt = Date.now() + 15_000;
  let before = busy();
  while (Date.now() < giveUpAt) {
    await new Promise((resolve) => setTimeout(resolve, windowMillis));
    const now = busy();
    if (now - before < 0.05 * windowMillis * 1000) return;
    before = now;
  }
}

/** Stops one process started here (by its pid) and resolves once it has exited. */
export function stopProcess(pid) {
  const at = children.findIndex((child) => child.pid === pid);
  if (at === -1) return Promise.resolve();
  const [child] = children.splice(at, 1);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.removeAllListeners('exit'); // its start() rejection is for an unexpected exit, not this one
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** SIGTERM to every process started here, the last started first (clients before the services they call). */
export function stopAll() {
  for (const child of children.toReversed()) child.kill('SIGTERM');
}

/**
 * The protocol eras a benchmark request is built for, each by the version it names. The gateway serves
 * both on its one endpoint; the SDK recipe and the minimal proxy are measured on the 2025 era only.
 */
export const Era = { legacy: '2025-11-25', modern: '2026-07-28' };

/**
 * One MCP request of the benchmarks, `{ era, headers, body }`. A 2025 request is byte for byte what the
 * benchmarks sent before the 2026 era was added, so its figures compare with earlier runs. A 2026-07-28
 * request carries what that revision requires of every request: the `_meta` envelope (protocol version,
 * client capabilities) and the MCP-Protocol-Version and Mcp-Method headers, plus Mcp-Name on tools/call
 * (the MCP specification's 2026-07-28 revision, §2 and §4).
 */
export function mcpRequest(era, method, params) {
  const version = Era[era];
  if (version === undefined) throw new Error(`unknown era ${era}; one of ${Object.keys(Era).join(', ')}`);
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': version };
  if (era === 'legacy') return { era, headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params && { params }) }) };
  headers['mcp-method'] = method;
  if (method === 'tools/call') headers['mcp-name'] = params.name;
  const _meta = { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientCapabilities': {} };
  return { era, headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } }) };
}

/** The tools/call every benchmark measures: `tool_0004` of the bench tool service, which echoes its text. */
export const callRequest = (era) => mcpRequest(era, 'tools/call', { name: 'tool_0004', arguments: { text: 'hello' } });
export const listRequest = (era) => mcpRequest(era, 'tools/list');

/** POSTs a request (`{ headers, body }`) once and fails unless the reply contains `expectText`. */
export async function check(url, { headers, body }, expectText) {
  const text = await (await fetch(url, { method: 'POST', headers, body })).text();
  if (!text.includes(expectText)) throw new Error(`sanity check failed for ${url}: ${text.slice(0, 300)}`);
}
