import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT, type ServerProcess } from '@toolmesh/test-peers/server-process';

/**
 * The README's agent CLI commands ("Try it"), as a user types them in the repository: `npx nx build agent-cli`,
 * then `npx agent-cli mcp add gateway --annotation-trust read-only <url>`, `npx agent-cli tools` and
 * `npx agent-cli call ...` against a gateway serving the sample tool service. Only the configuration file
 * is moved (`--config`), so the run leaves nothing in the checkout. The call runs without `--yes` and
 * without a terminal: the README's word that read-only trust lets the gateway's read-only tools run
 * without a question.
 */
async function npx(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  // Not spawnSync: the gateway's log pipe must be read while the command runs.
  const child = spawn('npx', args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}

describe('npx agent-cli against the gateway', () => {
  let tools: SampleToolService;
  let gateway: ServerProcess;
  let mcpUrl: string;
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'smoke-agent-cli-')), 'agent-cli.yaml');

  beforeAll(async () => {
    // Builds the gateway and the sample tool service too: the agent CLI's build depends on theirs.
    const build = await npx('nx', 'build', 'agent-cli', '--output-style=static');
    if (build.status !== 0) throw new Error(`npx nx build agent-cli exited with ${build.status}:\n${build.stdout}${build.stderr}`);
    tools = await startSampleToolService();
    const started = await spawnGateway(gatewayConfigFile(tools.url));
    gateway = started;
    mcpUrl = started.match[1];
  }, 300_000);
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  it('adds the gateway, lists its tools and calls one', async () => {
    // On failure the whole run is shown: its exit code, stdout and stderr (where the CLI reports progress).
    const add = await npx('agent-cli', '--config', config, 'mcp', 'add', 'gateway', '--annotation-trust', 'read-only', mcpUrl);
    expect(add).toMatchObject({ status: 0 });
    expect(readFileSync(config, 'utf8')).toContain(mcpUrl);

    const listed = await npx('agent-cli', 'tools', '--config', config);
    expect(listed).toMatchObject({ status: 0, stdout: expect.stringContaining('mcp__gateway__customer_lookup') });

    const call = await npx('agent-cli', 'call', 'mcp__gateway__customer_lookup', '{"customerId":"C1001"}', '--config', config);
    expect(call).toMatchObject({ status: 0, stdout: expect.stringContaining('Quillfeather Stationers') });
  }, 120_000);
});
