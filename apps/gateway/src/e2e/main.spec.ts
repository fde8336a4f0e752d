import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

import { freePort } from '@toolmesh/test-peers/free-port';
import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

const MAIN = path.join(REPO_ROOT, 'dist/apps/gateway/main.js');
const configFile = (toolServiceUrl: string) => gatewayConfigFile(toolServiceUrl, '  shutdownDrainMillis: 5000\n');

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const call = (url: string, id: number, name: string, args: object) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  });

describe('gateway process (built dist/apps/gateway/main.js)', () => {
  let tools: SampleToolService;
  beforeAll(async () => {
    tools = await startSampleToolService();
  });
  afterAll(() => tools?.stop());

  it('serves MCP and health from a YAML configuration', async () => {
    const gateway = await spawnGateway(configFile(tools.url));
    const [, mcpUrl, managementUrl] = gateway.match;
    const res = await call(mcpUrl, 1, 'echo_text', { text: 'from a process' });
    expect(((await res.json()) as { result: { content: Array<{ text: string }> } }).result.content[0].text).toBe('from a process');
    expect((await fetch(`${managementUrl}/actuator/health/liveness`)).status).toBe(200);
    expect(await gateway.stop()).toBe(0);
  });

  it('on SIGTERM lets in-flight calls finish, refuses new work, and exits', async () => {
    const gateway = await spawnGateway(configFile(tools.url));
    const [, mcpUrl] = gateway.match;
    await tools.clearCalls();
    const inFlight = [1, 2, 3].map((id) => call(mcpUrl, id, 'slow_operation', { delayMillis: 800 }).then((r) => r.json()));
    // SIGTERM only once all three calls have reached the tool service, and the late call only once the
    // gateway says it is draining: no timing guesses on a loaded machine.
    await until(async () => (await tools.calls()).length === 3);

    gateway.child.kill('SIGTERM');
    await until(async () => gateway.output().includes('event=gateway_draining'));
    const late = await call(mcpUrl, 4, 'echo_text', { text: 'too late' }).then(
      (r) => r.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(late);

    const results = (await Promise.all(inFlight)) as Array<{ result: { isError: boolean; content: Array<{ text: string }> } }>;
    expect(results.map((r) => [r.result.isError, r.result.content[0].text])).toEqual([
      [false, 'waited 800 ms'],
      [false, 'waited 800 ms'],
      [false, 'waited 800 ms'],
    ]);
    const [code] = await once(gateway.child, 'exit');
    expect(code).toBe(0);
    expect(gateway.output()).toMatch(/event=gateway_draining inFlight=3/);
    expect(gateway.output()).toMatch(/event=gateway_signal signal=SIGTERM[^]*event=gateway_stopped/); // written before the exit
  });

  it('survives a startup preload with the tool service and Redis both down: live, not ready, -32003', async () => {
    const [deadService, deadRedis] = [await freePort(), await freePort()];
    const redisUrl = `redis://:redis-secret-42@127.0.0.1:${deadRedis}`;
    const gateway = await spawnGateway(configFile(`http://127.0.0.1:${deadService}`), { REDIS_URL: redisUrl });
    const [, mcpUrl, managementUrl] = gateway.match;
    const list = async () =>
      (await (
        await fetch(mcpUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        })
      ).json()) as { error?: { code: number } };
    expect((await list()).error?.code).toBe(-32003); // waits for the cold load, which fails
    expect((await fetch(`${managementUrl}/actuator/health/liveness`)).status).toBe(200);
    expect((await fetch(`${managementUrl}/actuator/health/readiness`)).status).toBe(503);
    expect(gateway.child.exitCode).toBeNull();
    expect(await gateway.stop()).toBe(0);
    expect(gateway.output()).toContain('event=snapshot_cache_unavailable');
    expect(gateway.output()).not.toContain('redis-secret-42'); // the Redis password never reaches the logs
  });

  it('refuses to start on an invalid configuration, saying what to fix', async () => {
    const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, MANAGEMENT_PORT: 'ninety' } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain('MANAGEMENT_PORT must be an integer, got "ninety"');
  });

  it('prints help', async () => {
    const child = spawn(process.execPath, [MAIN, '--help']);
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage:');
  });
});
