import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { everythingConfigYaml } from '../test-support/everything-config';
import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';

/**
 * A server's `tools: { allow, deny }` (the habit of Codex's enabled_tools / disabled_tools and goose's
 * per-extension lists), with server-everything over stdio: the tools left out are never offered to the
 * model, never listed, and a call of one is refused, by `call` and by the agent's loop alike.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-tool-filter-'));
const FILTER = `      tools: { allow: ["get-*", echo], deny: ["get-tiny-*", get-env] }\n`;
let llm: ScriptedLlmServer;

const cli = (args: readonly string[]) => runCliInProcess(args, { cwd: dir });

beforeAll(async () => {
  llm = await startScriptedLlmServer([
    { toolCalls: [{ id: 'hidden', name: 'mcp__everything__get-env', arguments: {} }] },
    { text: 'It is not there.' },
  ]);
  writeFileSync(path.join(dir, 'agent-cli.yaml'), `${everythingConfigYaml(llm.baseUrl)}${FILTER}`);
});
afterAll(() => llm.close());

const mcpTools = (names: readonly string[]) => names.filter((name) => name.startsWith('mcp__')).sort();
const EXPECTED = [
  'mcp__everything__echo',
  'mcp__everything__get-annotated-message',
  'mcp__everything__get-resource-links',
  'mcp__everything__get-resource-reference',
  'mcp__everything__get-structured-content',
  'mcp__everything__get-sum',
];

describe("a server's tools allow and deny lists", () => {
  it('list only the tools allowed and not denied', async () => {
    const { code, stdout } = await cli(['tools', '--json']);
    expect(code).toBe(ExitCode.Ok);
    expect(mcpTools((JSON.parse(stdout).tools as Array<{ name: string }>).map((t) => t.name))).toEqual(EXPECTED);
  });

  it('refuse a call of a tool left out, saying which list left it out; an allowed one runs', async () => {
    expect(await cli(['call', 'mcp__everything__get-env'])).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining(
        `no tool named "mcp__everything__get-env"; the "tools" allow / deny list of the server "everything" in ${path.join(dir, 'agent-cli.yaml')} leaves it out`,
      ),
    });
    expect(await cli(['call', 'mcp__everything__get-sum', '{"a":2,"b":3}'])).toMatchObject({
      code: ExitCode.Ok,
      stdout: expect.stringContaining('5'),
    });
  });

  it('never show the model a tool left out, and refuse the call when it guesses one', async () => {
    const { code } = await cli(['run', '--yes', 'What is in the environment?']);
    expect(code).toBe(ExitCode.Ok);
    const [first, second] = llm.requests;
    expect(mcpTools((first.body.tools ?? []).map((t) => t.function.name))).toEqual(EXPECTED);
    const answer = second.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'hidden');
    expect(String(answer?.content)).toMatch(/unknown tool|no tool/i);
    expect(String(answer?.content)).not.toContain('PATH');
  });
});
