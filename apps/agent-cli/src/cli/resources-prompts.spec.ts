import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { everythingConfigYaml } from '../test-support/everything-config';
import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';

/**
 * `resources`, `prompts`, the model's resource tools and chat's /prompt (SPEC A13) against
 * server-everything from npm over stdio, run in-process through runCli; the model is the scripted server.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-resources-'));
const ARCHITECTURE = 'demo://resource/static/document/architecture.md';
let llm: ScriptedLlmServer | undefined;

function writeConfig(baseUrl = 'http://127.0.0.1:9/v1'): void {
  writeFileSync(path.join(dir, 'agent-cli.yaml'), everythingConfigYaml(baseUrl));
}

const cli = (args: string[], stdin?: string) =>
  runCliInProcess(args, { cwd: dir, stdin: stdin === undefined ? undefined : Readable.from([stdin]) });

beforeAll(() => writeConfig());
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  writeConfig();
});

describe('agent-cli resources', () => {
  it("lists server-everything's resources as a table and as JSON", async () => {
    const table = await cli(['resources']);
    expect(table.code).toBe(ExitCode.Ok);
    expect(table.stdout).toMatch(/^SERVER\s+URI\s+NAME\s+MIME TYPE\s+DESCRIPTION\n/);
    expect(table.stdout).toMatch(new RegExp(`everything\\s+${ARCHITECTURE.replace(/[.]/g, '\\.')}\\s+architecture\\.md\\s+text/markdown`));

    const json = await cli(['resources', 'list', 'everything', '--json']);
    expect(json.code).toBe(ExitCode.Ok);
    const { resources, failures } = JSON.parse(json.stdout) as { resources: Array<{ server: string; uri: string }>; failures: unknown[] };
    expect(failures).toEqual([]);
    expect(resources).toContainEqual(expect.objectContaining({ server: 'everything', uri: ARCHITECTURE }));
  });

  it('lists the resource templates', async () => {
    const { code, stdout } = await cli(['resources', 'templates', '--json']);
    expect(code).toBe(ExitCode.Ok);
    expect(JSON.parse(stdout).resourceTemplates).toContainEqual(
      expect.objectContaining({ server: 'everything', uriTemplate: 'demo://resource/dynamic/text/{resourceId}' }),
    );
  });

  it("reads a resource's text, a template's expansion, and names a binary part by type and size", async () => {
    const doc = await cli(['resources', 'read', 'everything', ARCHITECTURE]);
    expect(doc.code).toBe(ExitCode.Ok);
    expect(doc.stdout).toContain('# Everything Server');

    const text = await cli(['resources', 'read', 'everything', 'demo://resource/dynamic/text/7', '--json']);
    expect(JSON.parse(text.stdout).contents).toEqual([
      expect.objectContaining({ uri: 'demo://resource/dynamic/text/7', text: expect.stringContaining('7') }),
    ]);

    const blob = await cli(['resources', 'read', 'everything', 'demo://resource/dynamic/blob/3']);
    expect(blob.stdout).toMatch(/^\[binary resource demo:\/\/resource\/dynamic\/blob\/3 \(.+, \d+ bytes\)\]\n$/);
  });

  it('exits 2 for an unknown server and 1 when the server refuses the URI', async () => {
    expect(await cli(['resources', 'read', 'nosuch', ARCHITECTURE])).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringMatching(/no MCP server named "nosuch" is configured \(configured: everything\) \[server\.not_found\]/),
    });
    const refused = await cli(['resources', 'read', 'everything', 'demo://resource/static/document/no-such-file.md']);
    expect(refused.code).toBe(ExitCode.Failure);
    expect(refused.stderr).toContain('the server answered with an error');
    expect(await cli(['resources', 'fetch'])).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('unknown action "fetch"'),
    });
  });
});

describe('agent-cli prompts', () => {
  it('lists the prompts with their arguments, required ones starred', async () => {
    const { code, stdout } = await cli(['prompts']);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toMatch(/^SERVER\s+PROMPT\s+ARGUMENTS\s+DESCRIPTION\n/);
    expect(stdout).toMatch(/everything\s+args-prompt\s+city\*, state\s+/);
    expect(stdout).toMatch(/everything\s+simple-prompt\s+/);
  });

  it('gets a prompt with key=value arguments, as text and as JSON', async () => {
    const text = await cli(['prompts', 'get', 'everything', 'args-prompt', 'city=Paris', 'state=Île-de-France']);
    expect(text).toMatchObject({ code: ExitCode.Ok, stdout: expect.stringContaining('Paris') });
    expect(text.stdout).toContain('Île-de-France');
    const json = await cli(['prompts', 'get', 'everything', 'simple-prompt', '--json']);
    expect(JSON.parse(json.stdout).messages).toEqual([
      expect.objectContaining({ role: 'user', content: expect.objectContaining({ type: 'text' }) }),
    ]);
  });

  it('checks the arguments against the prompt before asking the server (exit 2)', async () => {
    expect(await cli(['prompts', 'get', 'everything', 'args-prompt'])).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringMatching(
        /missing the required argument\(s\) city; prompt "args-prompt" takes city=… \(required\) state=… \[prompt\.invalid_arguments\]/,
      ),
    });
    expect(await cli(['prompts', 'get', 'everything', 'args-prompt', 'town=Paris'])).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringContaining('"town" is not an argument of this prompt'),
    });
    expect(await cli(['prompts', 'get', 'everything', 'no-such-prompt'])).toMatchObject({
      code: ExitCode.Usage,
      stderr: expect.stringMatching(/has no prompt named "no-such-prompt" \(its prompts: .*args-prompt.*\) \[prompt\.not_found\]/),
    });
  });
});

describe('the model and the resources', () => {
  it('reads a resource through ReadMcpResource, a read-only tool that runs without approval', async () => {
    llm = await startScriptedLlmServer([
      { toolCalls: [{ name: 'ListMcpResources', arguments: { server: 'everything' } }] },
      { toolCalls: [{ name: 'ReadMcpResource', arguments: { server: 'everything', uri: ARCHITECTURE } }] },
      { text: 'It describes the architecture.' },
    ]);
    writeConfig(llm.baseUrl);
    const { code, stdout } = await cli(['run', 'summarise the architecture document']); // no --yes, no terminal

    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toContain('It describes the architecture.');
    const offered = llm.requests[0].body.tools?.map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['ListMcpResources', 'ReadMcpResource']));
    const listing = llm.requests[1].body.messages.at(-1);
    expect(listing).toMatchObject({ role: 'tool', content: expect.stringContaining(`everything\t${ARCHITECTURE}\tarchitecture.md`) });
    const read = llm.requests[2].body.messages.at(-1);
    expect(read).toMatchObject({ role: 'tool', content: expect.stringContaining('# Everything Server') });
  });

  it("chat: /prompt sends a server's prompt as the user's message, and a wrong one is told without ending the chat", async () => {
    llm = await startScriptedLlmServer([{ text: 'Sunny in Paris.' }]);
    writeConfig(llm.baseUrl);
    const { code, stdout, stderr } = await cli(
      ['chat'],
      '/prompt everything args-prompt\n/prompt everything args-prompt city="San Francisco"\n/exit\n',
    );

    expect(code).toBe(ExitCode.Ok);
    expect(stderr).toContain('missing the required argument(s) city');
    expect(stdout).toContain('Sunny in Paris.');
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0].body.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('San Francisco') });
  });
});
