import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';

/**
 * `--mcp-server name=<command line or URL>`: a server for one run (goose's --with-extension, fast-agent's
 * --url), with server-everything over stdio; nothing is written, and it replaces a configured one.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-session-servers-'));
const EVERYTHING = `ev=${EVERYTHING_BIN} stdio`;
let llm: ScriptedLlmServer;

const cli = (...args: string[]) => runCliInProcess(args, { cwd: dir });

beforeAll(async () => {
  llm = await startScriptedLlmServer([{ text: 'Done.' }]);
});
afterAll(() => llm.close());

describe('--mcp-server', () => {
  it('gives a command a server for this run alone, and writes no file', async () => {
    const { code, stdout } = await cli('tools', '--json', '--mcp-server', EVERYTHING);
    expect(code).toBe(ExitCode.Ok);
    expect((JSON.parse(stdout).tools as Array<{ name: string }>).map((t) => t.name)).toContain('mcp__ev__echo');
    expect(existsSync(path.join(dir, 'agent-cli.yaml'))).toBe(false);
  });

  it('is offered to the model, and replaces a configured server of the same name, one turned off included', async () => {
    writeFileSync(
      path.join(dir, 'agent-cli.yaml'),
      `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\nmcp:\n  servers:\n    - { name: ev, command: nowhere-to-be-found, enabled: false }\n`,
    );
    const { code } = await cli('run', '--mcp-server', EVERYTHING, 'Say done.');
    expect(code).toBe(ExitCode.Ok);
    expect((llm.requests[0].body.tools ?? []).map((t) => t.function.name)).toContain('mcp__ev__echo');
    const called = await cli('call', 'mcp__ev__echo', '{"message":"hi"}', '--mcp-server', EVERYTHING);
    expect(called).toMatchObject({ code: ExitCode.Ok, stdout: expect.stringContaining('Echo: hi') });
  });

  it('refuses what is not name=<command line or URL>, a URL of another scheme, and one name twice', async () => {
    expect(await cli('tools', '--mcp-server', 'ev')).toMatchObject({
      code: ExitCode.Config,
      stderr: expect.stringContaining('--mcp-server "ev" is not name=<command line> or name=<http(s) URL>'),
    });
    expect(await cli('tools', '--mcp-server', 'web=ftp://example.com/mcp')).toMatchObject({
      code: ExitCode.Config,
      stderr: expect.stringContaining('--mcp-server: web.url must be an http:// or https:// URL'),
    });
    expect(await cli('tools', '--mcp-server', EVERYTHING, '--mcp-server', EVERYTHING)).toMatchObject({
      code: ExitCode.Config,
      stderr: expect.stringContaining('--mcp-server names one server twice'),
    });
  });
});
