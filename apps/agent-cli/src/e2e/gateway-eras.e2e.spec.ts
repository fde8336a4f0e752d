import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '@toolmesh/test-peers/free-port';
import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { until } from '@toolmesh/test-peers/process-table';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT, type ServerProcess } from '@toolmesh/test-peers/server-process';

import { TransportClientFactory } from '../mcp/client-factory';
import { McpClientManager } from '../mcp/client-manager';
import type { HttpServerConfig } from '../mcp/server-config';
import { type CliRun, runBuiltCli } from '../test-support/built-cli';
import { ToolRegistry } from '../tools/tool-registry';

/** The built CLI with the given configuration, as a user runs it. */
function cli(config: string, ...args: string[]): Promise<CliRun> {
  return runBuiltCli([...args, '--config', config], { cwd: REPO_ROOT, env: { PATH: process.env.PATH } });
}

function agentConfig(url: string, era?: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'agent-eras-')), 'agent-cli.yaml');
  writeFileSync(file, `mcp:\n  servers:\n    - name: gateway\n      url: ${url}\n${era ? `      era: "${era}"\n` : ''}`);
  return file;
}

/** The JSON-RPC methods the gateway logged receiving since `from` (a length of its output). */
function methodsSince(gateway: ServerProcess, from: number): string[] {
  return [
    ...gateway
      .output()
      .slice(from)
      .matchAll(/event=mcp_http_request_received method=(\S+)/g),
  ].map((m) => m[1]);
}

/** What the agent does with a server, end to end: status, tool list, a call. */
async function useGateway(config: string): Promise<{ protocolVersion: string | undefined; tools: string[]; answer: string }> {
  const servers = await cli(config, 'servers', '--json');
  expect(servers.code).toBe(0);
  const [status] = (JSON.parse(servers.stdout) as { servers: Array<{ state: string; protocolVersion?: string }> }).servers;
  expect(status.state).toBe('connected');
  const listed = await cli(config, 'tools', '--json');
  expect(listed.code).toBe(0);
  const tools = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools
    .map((t) => t.name)
    .filter((name) => name.startsWith('mcp__'));
  const call = await cli(config, 'call', 'mcp__gateway__customer_lookup', '{"customerId":"C1001"}', '--yes');
  expect(call.code).toBe(0);
  return { protocolVersion: status.protocolVersion, tools, answer: call.stdout };
}

/**
 * The agent CLI against our gateway in each era (SPEC A18): the built CLI and gateway as real processes.
 * The gateway serves both eras by default; `era: auto` must pick 2026-07-28 at once (its log shows no
 * initialize), `era: legacy` and a 2025-only gateway get initialize.
 */
describe('agent-cli speaks both eras with the toolmesh gateway', () => {
  let tools: SampleToolService;
  let gateway: ServerProcess & { match: RegExpExecArray };
  let mcpUrl: string;

  beforeAll(async () => {
    tools = await startSampleToolService();
    gateway = await spawnGateway(gatewayConfigFile(tools.url, '  catalogue: { refreshTtlMillis: 1000 }'));
    mcpUrl = gateway.match[1];
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  it('era auto: the 2026-07-28 era found by server/discover, with no initialize and no fallback round trip', async () => {
    const from = gateway.output().length;
    const used = await useGateway(agentConfig(mcpUrl));
    expect(used.protocolVersion).toBe('2026-07-28');
    expect(used.tools).toContain('mcp__gateway__customer_lookup');
    expect(used.answer).toContain('Quillfeather Stationers');
    const methods = methodsSince(gateway, from);
    expect(methods).toContain('server/discover');
    expect(methods).toContain('tools/call');
    expect(methods).not.toContain('initialize');
  });

  it('era legacy: initialize, as a 2025 client', async () => {
    const from = gateway.output().length;
    const used = await useGateway(agentConfig(mcpUrl, 'legacy'));
    expect(used.protocolVersion).toBe('2025-11-25');
    expect(used.answer).toContain('Quillfeather Stationers');
    const methods = methodsSince(gateway, from);
    expect(methods).toContain('initialize');
    expect(methods).not.toContain('server/discover');
  });

  it('era 2026-07-28: pinned, it connects without initialize', async () => {
    const from = gateway.output().length;
    const used = await useGateway(agentConfig(mcpUrl, '2026-07-28'));
    expect(used.protocolVersion).toBe('2026-07-28');
    expect(methodsSince(gateway, from)).not.toContain('initialize');
  });

  it('era auto against a gateway that serves only 2025-11-25: the probe is refused, initialize follows', async () => {
    const legacyOnly = await spawnGateway(
      gatewayConfigFile(tools.url, '  protocol: { supportedVersions: ["2025-11-25"], preferredVersion: "2025-11-25" }'),
    );
    try {
      const used = await useGateway(agentConfig(legacyOnly.match[1]));
      expect(used.protocolVersion).toBe('2025-11-25');
      expect(used.answer).toContain('Quillfeather Stationers');
      expect(methodsSince(legacyOnly, 0)).toEqual(expect.arrayContaining(['server/discover', 'initialize', 'tools/call']));
    } finally {
      await legacyOnly.stop();
    }
  });
});

/**
 * A 2026-07-28 server's list changes come on a subscriptions/listen stream: the agent keeps one open
 * and lists the tools again on each (the live tool list of SPEC A12), and opens it again when it
 * drops (here: the gateway restarts on the same port).
 */
describe('agent-cli keeps the 2026 tool list of the gateway live', () => {
  let tools: SampleToolService;
  let gateway: ServerProcess & { match: RegExpExecArray };
  let manager: McpClientManager | undefined;
  let configFile: string;
  const warnings: string[] = [];

  beforeAll(async () => {
    tools = await startSampleToolService();
    const port = await freePort();
    configFile = gatewayConfigFile(tools.url, '  catalogue: { refreshTtlMillis: 1000 }');
    // A fixed port, so that the restarted gateway is at the address the agent knows.
    writeFileSync(configFile, readFileSync(configFile, 'utf8').replace('server: { port: 0,', `server: { port: ${port},`));
    gateway = await spawnGateway(configFile);
  });
  afterAll(async () => {
    await manager?.close();
    await gateway?.stop();
    await tools?.stop();
  });

  const offeredNames = async (registry: ToolRegistry) => (await registry.beginTurn()).map((t) => t.name);

  /** Polls the tools a next turn would offer until `holds` says yes, for up to `timeoutMs`. */
  async function offersEventually(registry: ToolRegistry, holds: (names: string[]) => boolean, timeoutMs: number): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (holds(await offeredNames(registry))) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return holds(await offeredNames(registry));
  }

  it('applies a list change told on the listen stream, and again after the stream dropped and was reopened', async () => {
    const config: HttpServerConfig = {
      name: 'gateway',
      transport: 'streamable-http',
      url: new URL(gateway.match[1]),
      headers: {},
      requestTimeoutMs: 10_000,
      annotationTrust: 'ignore',
    };
    manager = new McpClientManager(new TransportClientFactory({ name: 'eras-test', version: '0' }), {
      warn: (line) => warnings.push(line),
    });
    const [status] = await manager.connectAll([config]);
    expect(status).toMatchObject({ state: 'connected', protocolVersion: '2026-07-28' });
    const registry = new ToolRegistry();
    await manager.registerAllTools(registry);
    expect(await offeredNames(registry)).not.toContain('mcp__gateway__test_added_tool');

    await fetch(`${tools.url}/tools/test_trigger_tool_change`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await offersEventually(registry, (names) => names.includes('mcp__gateway__test_added_tool'), 15_000)).toBe(true);

    // The gateway goes away (ending the listen stream) and comes back on the same address.
    await gateway.stop();
    gateway = await spawnGateway(configFile);
    await fetch(`${tools.url}/tools/test_trigger_tool_change`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await offersEventually(registry, (names) => !names.includes('mcp__gateway__test_added_tool'), 30_000)).toBe(true);
    expect(manager.status[0].state).toBe('connected');
    // The new gateway was listened to: the change came on a reopened stream, not by polling. Its log lines
    // are written in batches, so the request's line may follow the change by a moment.
    const reopened = gateway;
    await until(() => methodsSince(reopened, 0).includes('subscriptions/listen'), 'the new gateway listened to', 15_000);
  }, 90_000);
});
