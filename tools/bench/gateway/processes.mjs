// The processes of the gateway benchmarks (run.mjs, cpu-per-call.mjs): started with a minimal
// environment, stopped together, each announcing its URL on standard output.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.join(here, '../../..');
const children = [];

/**
 * Starts `node ...args` and resolves with the first capture group of `ready` in its output, then keeps
 * draining its output, as a log collector would. Resolves `{ url, pid }`.
 */
export function start(label, args, env, ready, nodeOptions = []) {
  const child = spawn(process.execPath, [...nodeOptions, ...args], { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ url: match[1], pid: child.pid });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}: ${output}`)));
  });
}

export function startToolService(tools) {
  return start(`tool service (${tools} tools)`, [path.join(here, 'bench-tool-service.mjs')], { TOOLS: String(tools) }, /listening on (\S+)/);
}

/**
 * The built gateway with one bundle, the bench tool service. `main` defaults to this checkout's build
 * (dist/apps/gateway/main.js); cpu-per-call.mjs --compare passes another build.
 */
export function startGateway(toolService, { main = path.join(root, 'dist/apps/gateway/main.js'), nodeOptions = [] } = {}) {
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-bench-')), 'gateway.yaml');
  writeFileSync(config, `server: { port: 0, managementPort: 0 }\nmcp:\n  bundles: [{ name: bench, serviceDomain: "${toolService}", manifestPath: /tool-manifest }]\n`);
  return start('gateway', [main, '--config', config], {}, /event=gateway_started mcpUrl=(\S+)/, nodeOptions);
}

export function startMinimalProxy(toolService) {
  return start('minimal proxy', [path.join(here, 'minimal-proxy.mjs')], { TOOL_SERVICE_URL: toolService }, /listening on (\S+)/);
}

export function startSdkRecipe(toolService) {
  return start('SDK recipe', [path.join(here, 'sdk-recipe-gateway.mjs')], { TOOL_SERVICE_URL: toolService }, /listening on (\S+)/);
}

/** SIGTERM to every process started here, the last started first (clients before the services they call). */
export function stopAll() {
  for (const child of children.toReversed()) child.kill('SIGTERM');
}

export const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
export const callBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tool_0004', arguments: { text: 'hello' } } });
export const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

export async function check(url, headers, body, expectText) {
  const text = await (await fetch(url, { method: 'POST', headers, body })).text();
  if (!text.includes(expectText)) throw new Error(`sanity check failed for ${url}: ${text.slice(0, 300)}`);
}
