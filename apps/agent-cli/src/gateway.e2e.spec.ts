import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gatewayConfigFile, spawnGateway } from '../../../tools/test/gateway-process';
import { startSampleToolService, type SampleToolService } from '../../../tools/test/sample-tool-service';
import { REPO_ROOT, type ServerProcess } from '../../../tools/test/server-process';
import { runBuiltCli, type CliRun } from './test-support/built-cli';

/** The built CLI with the given configuration, as a user runs it. */
function cli(config: string, ...args: string[]): Promise<CliRun> {
  return runBuiltCli([...args, '--config', config], { cwd: REPO_ROOT, env: { PATH: process.env.PATH } });
}

/** The agent CLI against our own gateway: both built, both real processes, over Streamable HTTP. */
describe('agent-cli through the toolmesh gateway', () => {
  let tools: SampleToolService;
  let gateway: ServerProcess;
  let config: string;
  let catalogue: Array<{ name: string; inputSchema: unknown }>;

  beforeAll(async () => {
    tools = await startSampleToolService();
    const started = await spawnGateway(gatewayConfigFile(tools.url));
    gateway = started;
    const mcpUrl = started.match[1];
    config = path.join(mkdtempSync(path.join(tmpdir(), 'agent-gw-')), 'agent-cli.yaml');
    writeFileSync(config, `mcp:\n  servers:\n    - name: gateway\n      transport: streamable-http\n      url: ${mcpUrl}\n`);
    const listed = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    catalogue = ((await listed.json()) as { result: { tools: typeof catalogue } }).result.tools;
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  it('connects and counts every tool of the catalogue', async () => {
    const run = await cli(config, 'servers', '--json');
    expect(run.code).toBe(0);
    const { servers } = JSON.parse(run.stdout) as { servers: Array<{ name: string; state: string; toolCount: number; serverInfo?: { name: string } }> };
    expect(servers).toEqual([expect.objectContaining({ name: 'gateway', state: 'connected', toolCount: catalogue.length, serverInfo: expect.objectContaining({ name: 'toolmesh-gateway' }) })]);
  });

  it('lists the tools as mcp__gateway__<tool>, with the input schemas exactly as the gateway advertises them', async () => {
    const run = await cli(config, 'tools', '--json');
    expect(run.code).toBe(0);
    const listed = (JSON.parse(run.stdout) as { tools: Array<{ name: string; inputSchema: unknown }> }).tools;
    const fromGateway = listed.filter((t) => t.name.startsWith('mcp__')); // the built-in tools are listed too
    expect(fromGateway.map((t) => t.name).sort()).toEqual(catalogue.map((t) => `mcp__gateway__${t.name}`).sort());
    for (const tool of catalogue) expect(listed.find((t) => t.name === `mcp__gateway__${tool.name}`)?.inputSchema).toEqual(tool.inputSchema);
  });

  it('calls a tool, and reports the gateway\'s isError result as a failed call', async () => {
    const ok = await cli(config, 'call', 'mcp__gateway__customer_lookup', '{"customerId":"C1001"}', '--yes');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Quillfeather Stationers');
    const failing = await cli(config, 'call', 'mcp__gateway__always_fails', '{}', '--yes');
    expect(failing.code).toBe(1);
    expect(`${failing.stdout}${failing.stderr}`).toContain('answered HTTP 500');
  });
});
