import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '@toolmesh/test-peers/free-port';
import { type HttpPeer, PYTHON_MCP_REPLAY_SCRIPT, startHttpPeer, startPythonMcpServer } from '@toolmesh/test-peers/peers/http-peer';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';

/**
 * A Python `mcp` 2.3.0 server's tools that ask the 2025 way (`ctx.elicit`, `ctx.session.create_message`),
 * with the default `era: auto` (issue 45, item 3). The server offers 2026-07-28, which has no
 * server-to-client requests, and fails such a call there; the agent then speaks 2025-11-25 with it, runs
 * the call again and says so. Met as the replay of its captured wire (tools/test/peers/python-mcp-server.mjs,
 * in CI) and, when TOOLMESH_PYTHON_MCP names a venv's python with `mcp` 2.3.0, as the real server.
 */
const python = process.env.TOOLMESH_PYTHON_MCP;
const servers: Array<[string, () => Promise<Pick<HttpPeer, 'url' | 'stop'>>]> = [
  ['the replay of its wire', () => startHttpPeer([], PYTHON_MCP_REPLAY_SCRIPT)],
];
if (python) servers.push(['the real server (TOOLMESH_PYTHON_MCP)', async () => startPythonMcpServer(python, await freePort())]);

describe.each(servers)('a Python mcp server whose tools ask the 2025 way, %s, with era auto', (_, start) => {
  let server: Pick<HttpPeer, 'url' | 'stop'>;
  let llm: ScriptedLlmServer;
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-python-'));

  beforeAll(async () => {
    [server, llm] = await Promise.all([start(), startScriptedLlmServer([{ text: 'Four.' }])]);
    const yaml = `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\nmcp:\n  servers:\n    - name: py\n      url: ${server.url}\n`;
    writeFileSync(path.join(dir, 'agent-cli.yaml'), yaml);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([server?.stop(), llm?.close()]);
  });

  const cli = (args: string[], answers: string[] = []) =>
    runCliInProcess(args, { cwd: dir, terminal: { ask: async () => answers.shift() ?? '', close: () => undefined } });

  const CHOSEN =
    /"py" asked its client with a request of its own, which 2026-07-28 has no channel for: .*elicitation\/create.*; it is spoken to with 2025-11-25 from now on, and the call runs again \(era: legacy/;

  it('elicitation: the form is asked and answered, after the agent turned to 2025-11-25 and said so', async () => {
    const { code, stdout, stderr } = await cli(['call', 'mcp__py__ask_name', '{}'], ['Ada', 'y']);
    expect(stderr).toMatch(CHOSEN);
    expect(stdout).toContain('hello Ada');
    expect(code).toBe(ExitCode.Ok);
  });

  it('sampling: the configured model answers (--yes approves it)', async () => {
    const { code, stdout, stderr } = await cli(['call', 'mcp__py__summarize', '{"text":"abc"}', '--yes']);
    expect(stderr).toContain("Cannot send 'sampling/createMessage'");
    expect(stderr).toContain('it is spoken to with 2025-11-25 from now on');
    expect(stdout).toContain('summary: Four.');
    expect(code).toBe(ExitCode.Ok);
    expect(llm.requests[0].body.messages).toEqual([{ role: 'user', content: 'Summarize: abc' }]);
  });
});
