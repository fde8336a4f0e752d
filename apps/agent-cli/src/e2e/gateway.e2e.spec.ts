import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT, type ServerProcess } from '@toolmesh/test-peers/server-process';

import { startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { ExitCode } from '../cli/exit-codes';
import { type CliRun, runBuiltCli } from '../test-support/built-cli';

/** The built CLI with the given configuration, as a user runs it. */
function cli(config: string, ...args: string[]): Promise<CliRun> {
  return runBuiltCli([...args, '--config', config], { cwd: REPO_ROOT, env: { PATH: process.env.PATH } });
}

/**
 * The gateway's call deadline, and how long the long call of the tasks case runs: three times longer, so only
 * a task gets its result (config/examples/tasks.yaml's shape, issue 47).
 */
const DEADLINE_MILLIS = 1_000;
const JOB_SECONDS = 3;

/**
 * The agent CLI against our own gateway: both built, both real processes, over Streamable HTTP. The gateway
 * serves long REST calls as tasks (`mcp.tasks`), with a call deadline shorter than slow_compute's job.
 */
describe('agent-cli through the toolmesh gateway', () => {
  let tools: SampleToolService;
  let gateway: ServerProcess;
  let config: string;
  let catalogue: Array<{ name: string; inputSchema: unknown }>;
  let mcpUrl: string;

  beforeAll(async () => {
    tools = await startSampleToolService();
    const started = await spawnGateway(
      gatewayConfigFile(
        tools.url,
        `  maxToolTimeoutMillis: ${DEADLINE_MILLIS}\n  tasks: { enabled: true, poll: { defaultMillis: 500, minMillis: 100, maxMillis: 1000 } }\n`,
      ),
    );
    gateway = started;
    mcpUrl = started.match[1];
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
    const { servers } = JSON.parse(run.stdout) as {
      servers: Array<{ name: string; state: string; toolCount: number; serverInfo?: { name: string } }>;
    };
    expect(servers).toEqual([
      expect.objectContaining({
        name: 'gateway',
        state: 'connected',
        toolCount: catalogue.length,
        serverInfo: expect.objectContaining({ name: 'toolmesh-gateway' }),
      }),
    ]);
  });

  it('lists the tools as mcp__gateway__<tool>, with the input schemas exactly as the gateway advertises them', async () => {
    const run = await cli(config, 'tools', '--json');
    expect(run.code).toBe(0);
    const listed = (JSON.parse(run.stdout) as { tools: Array<{ name: string; inputSchema: unknown }> }).tools;
    const fromGateway = listed.filter((t) => t.name.startsWith('mcp__')); // the built-in tools are listed too
    expect(fromGateway.map((t) => t.name).sort()).toEqual(catalogue.map((t) => `mcp__gateway__${t.name}`).sort());
    for (const tool of catalogue)
      expect(listed.find((t) => t.name === `mcp__gateway__${tool.name}`)?.inputSchema).toEqual(tool.inputSchema);
  });

  it("calls a tool, and reports the gateway's isError result as a failed call", async () => {
    const ok = await cli(config, 'call', 'mcp__gateway__customer_lookup', '{"customerId":"C1001"}', '--yes');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Quillfeather Stationers');
    const failing = await cli(config, 'call', 'mcp__gateway__always_fails', '{}', '--yes');
    expect(failing.code).toBe(1);
    expect(`${failing.stdout}${failing.stderr}`).toContain('answered HTTP 500');
  });

  it('suggests the qualified name for a tool named without its server', async () => {
    const run = await cli(config, 'call', 'customer_lookup', '{"customerId":"C1001"}');
    expect(run).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('no tool named "customer_lookup"; did you mean mcp__gateway__customer_lookup?'),
    });
  });

  it('shows the error the gateway answers at a wrong path, not only its HTTP status', async () => {
    const wrong = path.join(path.dirname(config), 'wrong-path.yaml');
    writeFileSync(wrong, `mcp:\n  servers:\n    - name: gateway\n      url: ${new URL('/nope', mcpUrl).href}\n`);
    const run = await cli(wrong, 'servers');
    expect(run.code).toBe(ExitCode.ServerUnavailable);
    expect(run.stderr).toContain('/nope answered HTTP 404: Invalid Request: no MCP endpoint at /nope; use /mcp');
  });

  it('run: a long call becomes a task of the gateway, another tool runs meanwhile, the task wakes the agent and its result reaches the model', async () => {
    const llm = await startScriptedLlmServer([
      { toolCalls: [{ id: 'long', name: 'mcp__gateway__slow_compute', arguments: { seconds: JOB_SECONDS, label: 'q3' } }] },
      { toolCalls: [{ id: 'lookup', name: 'mcp__gateway__customer_lookup', arguments: { customerId: 'C1001' } }] },
      { text: 'Waiting for the computation.' },
      { text: 'The computation of q3 is done.' },
    ]);
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'agent-gw-tasks-'));
      writeFileSync(
        path.join(dir, 'agent-cli.yaml'),
        `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\nmcp:\n  servers:\n    - name: gateway\n      url: ${mcpUrl}\n      annotationTrust: read-only\n`,
      );
      const run = await runBuiltCli(['run', 'compute q3', '--yes'], { cwd: dir, env: { PATH: process.env.PATH } });
      expect(run).toMatchObject({ code: ExitCode.Ok, stdout: expect.stringContaining('The computation of q3 is done.') });

      const handle = llm.requests[1].body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'long')?.content;
      expect(handle).toMatch(/^mcp__gateway__slow_compute is running as task \S+ \(status working\)/);
      // customer_lookup answered while the task ran; the task's end, its service's answer, came after.
      const lookup = llm.requests[2].body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'lookup')?.content;
      expect(lookup).toContain('Quillfeather Stationers');
      const last = llm.requests[llm.requests.length - 1].body.messages;
      const delivered = String(last.find((m) => m.role === 'user' && String(m.content).startsWith('[Task '))?.content);
      expect(delivered).toContain('of mcp__gateway__slow_compute ended (completed)');
      expect(delivered).toContain(`computed q3 in ${JOB_SECONDS} s`);
    } finally {
      await llm.close();
    }
  }, 30_000);

  it('added with mcp add --annotation-trust read-only, runs its read-only tools in a script (run, no --yes, no terminal)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agent-gw-run-'));
    const inDir = (...args: string[]) => runBuiltCli(args, { cwd: dir, env: { PATH: process.env.PATH } });
    /** `run` with a configuration made by `mcp add gateway <addOptions>`, the model asking for customer_lookup once. */
    async function runWith(addOptions: string[]) {
      const llm = await startScriptedLlmServer([
        { toolCalls: [{ name: 'mcp__gateway__customer_lookup', arguments: { customerId: 'C1001' } }] },
        { text: 'It is Quillfeather Stationers.' },
      ]);
      try {
        const file = `${addOptions.length}.yaml`;
        writeFileSync(path.join(dir, file), `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\n`);
        expect(await inDir('mcp', 'add', 'gateway', ...addOptions, mcpUrl, '--config', file)).toMatchObject({ code: 0 });
        const run = await inDir('run', 'Who is customer C1001?', '--config', file);
        return { code: run.code, toolResult: JSON.stringify(llm.requests[1]?.body.messages.find((message) => message.role === 'tool')) };
      } finally {
        await llm.close();
      }
    }
    // Without a trust level every gateway tool is assumed destructive: refused, with no one to ask.
    expect(await runWith([])).toMatchObject({ code: ExitCode.Denied });
    expect(await runWith(['--annotation-trust', 'read-only'])).toEqual({
      code: ExitCode.Ok,
      toolResult: expect.stringContaining('Quillfeather Stationers'),
    });
  });
});
