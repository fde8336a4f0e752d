import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

import { freePort } from '@toolmesh/test-peers/free-port';
import { GATEWAY_READY } from '@toolmesh/test-peers/gateway-process';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

/**
 * The README's first command, as a user types it, with every port moved: `npx nx serve gateway` builds and
 * starts the sample tool service and the gateway. It used to fail with EADDRINUSE when PORT was set,
 * because the sample service read the gateway's PORT too (issue #12, "First run"); then the gateway kept
 * calling 8081 when TOOL_SERVICE_PORT moved the service, serving the local fallback (issue 30).
 */
describe('npx nx serve gateway', () => {
  let serve: ChildProcess | undefined;
  afterAll(async () => {
    if (!serve || serve.exitCode !== null || serve.pid === undefined) return;
    // nx, the sample service and the gateway share the process group started here.
    const exited = once(serve, 'exit');
    process.kill(-serve.pid, 'SIGTERM');
    const timer = setTimeout(() => serve?.pid !== undefined && process.kill(-serve.pid, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }, 30_000);

  it('answers tools/call from the moved sample service with PORT, MANAGEMENT_PORT and TOOL_SERVICE_PORT set, and no configuration', async () => {
    const [port, managementPort, toolServicePort] = [await freePort(), await freePort(), await freePort()];
    serve = spawn('npx', ['nx', 'serve', 'gateway'], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A short catalogue TTL: nx starts both at once, so the gateway's first manifest fetch may come before
      // the service listens and serve the local fallback until its next refresh.
      env: {
        ...process.env,
        PORT: String(port),
        MANAGEMENT_PORT: String(managementPort),
        TOOL_SERVICE_PORT: String(toolServicePort),
        MCP_CATALOGUE_REFRESH_TTL_MILLIS: '1000',
      },
    });
    let output = '';
    serve.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    serve.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = once(serve, 'exit').then(([code]) => {
      throw new Error(`nx serve gateway exited with ${code}:\n${output}`);
    });
    const ready = new Promise<RegExpExecArray>((resolve) => {
      const check = () => {
        const match = GATEWAY_READY.exec(output);
        if (match) resolve(match);
      };
      serve?.stdout?.on('data', check);
      serve?.stderr?.on('data', check);
    });
    const [, mcpUrl, managementUrl] = await Promise.race([ready, exited]);
    expect([new URL(mcpUrl).port, new URL(managementUrl).port]).toEqual([String(port), String(managementPort)]);

    // The catalogue loads in the background; a call before it has the sample's tools is -32001 or -32003.
    let reply: { result?: { isError?: boolean; content: Array<{ text: string }> }; error?: unknown } = {};
    for (let attempt = 0; attempt < 100 && !reply.result; attempt++) {
      const res = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: attempt,
          method: 'tools/call',
          params: { name: 'customer_lookup', arguments: { customerId: 'C1001' } },
        }),
      });
      reply = (await res.json()) as typeof reply;
      if (!reply.result) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(reply.result?.isError).toBe(false);
    expect(reply.result?.content[0].text).toContain('C1001');
    // The manifest, too, comes from the moved service: the local fallback, if the first fetch raced the
    // service's start, gives way at a refresh (a tools/list after the TTL starts one).
    type Bundles = { bundles: Array<{ source: string }> };
    let status: Bundles = { bundles: [] };
    for (let attempt = 0; attempt < 100 && status.bundles[0]?.source !== 'remote'; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
        body: '{"jsonrpc":"2.0","id":"l","method":"tools/list"}',
      });
      status = (await (await fetch(`${managementUrl}/actuator/toolBundles`)).json()) as Bundles;
    }
    expect(status.bundles).toEqual([expect.objectContaining({ bundle: 'sample', source: 'remote', degraded: false })]);
  }, 240_000);
});
