import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { FEDERATED_CALLS, type FederatingGateway, startFederatingGateway } from '@toolmesh/test-peers/federating-gateway';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { ExitCode } from '../cli/exit-codes';
import { builtCliCommandLine, type CliRun, runBuiltCli } from '../test-support/built-cli';
import { onTerminal, type TerminalSession } from '../test-support/terminal-session';

/**
 * The built agent CLI through a gateway that federates server-everything (issue 28), in both eras (`auto`
 * gets 2026-07-28 from our gateway, `legacy` 2025-11-25): it lists the federated tools and calls them, and
 * gets what a direct call gets (the image and the resource links intact); it lists and reads the server's
 * resources and gets its prompts under the gateway's names for them (`everything+<uri>`, `ev_<prompt>`);
 * and a form the server asks for during a call (elicitation) is put to the person at the CLI's terminal,
 * whose answers reach the server through the gateway; a sampling request is answered by the CLI's model.
 * Its read-only claims are the server's, which the gateway marks: `annotationTrust: read-only` asks about
 * them, `read-only-federated` believes them.
 */
const ERAS = [
  ['auto', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const;

/** The fields of server-everything's elicitation form, in order, and what is typed at each (Enter keeps the rest's defaults). */
const FORM: ReadonlyArray<readonly [field: string, answer: string]> = [
  ['name', 'Ada Lovelace'],
  ['check', ''],
  ['firstLine', ''],
  ['email', 'ada@example.com'],
  ['homepage', ''],
  ['birthdate', '1815-12-10'],
  ['integer', ''],
  ['number', ''],
  ['untitledSingleSelectEnum', ''],
  ['untitledMultipleSelectEnum', ''],
  ['titledSingleSelectEnum', ''],
  ['titledMultipleSelectEnum', ''],
  ['legacyTitledEnum', ''],
];

describe('agent-cli through a federating gateway (issue 28)', () => {
  let front: FederatingGateway;
  let llm: ScriptedLlmServer;
  let terminal: TerminalSession | undefined;

  beforeAll(async () => {
    front = await startFederatingGateway();
    llm = await startScriptedLlmServer(() => ({ text: 'an old silent pond' }));
  }, 120_000);
  afterEach(() => terminal?.kill());
  afterAll(async () => {
    await front?.stop();
    await llm?.close();
  });

  /** A configuration with the gateway as server `gw` in `era`, at `annotationTrust` when given, and `model` (default: the haiku one). */
  function agentConfig(era: 'auto' | 'legacy', annotationTrust?: string, model: ScriptedLlmServer = llm): string {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'agent-federation-')), 'agent-cli.yaml');
    const trust = annotationTrust === undefined ? '' : `      annotationTrust: ${annotationTrust}\n`;
    writeFileSync(
      file,
      `llm: { baseUrl: ${model.baseUrl}, model: scripted-model }\nmcp:\n  servers:\n    - name: gw\n      url: ${front.url}\n      era: "${era}"\n${trust}`,
    );
    return file;
  }
  /** The built CLI with `config`, its output the command's text. */
  const plain = (config: string, ...args: string[]): Promise<CliRun> =>
    runBuiltCli([...args, '--config', config], { cwd: REPO_ROOT, env: { PATH: process.env.PATH } });
  const cli = (config: string, ...args: string[]): Promise<CliRun> => plain(config, ...args, '--json');
  /** The command's JSON output, once it exited 0 (else its exit code and stderr fail the test). */
  const json = async <T>(config: string, ...args: string[]): Promise<T> => {
    const run = await cli(config, ...args);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    return JSON.parse(run.stdout) as T;
  };

  it.each(ERAS)(
    'era %s (%s): lists the federated tools and calls them, the image and the links intact',
    async (era, version) => {
      const config = agentConfig(era);
      const servers = await cli(config, 'servers');
      expect(servers.code).toBe(0);
      expect(JSON.parse(servers.stdout)).toMatchObject({ servers: [{ state: 'connected', protocolVersion: version }] });
      const listed = await cli(config, 'tools');
      expect(listed.code).toBe(0);
      const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(FEDERATED_CALLS.map(([tool]) => `mcp__gw__ev_${tool}`)));
      for (const [tool, args] of FEDERATED_CALLS) {
        const called = await cli(config, 'call', `mcp__gw__ev_${tool}`, JSON.stringify(args), '--yes');
        expect({ code: called.code, stderr: called.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
        const { content, isError } = front.direct.get(tool) ?? {};
        expect(JSON.parse(called.stdout)).toMatchObject({ isError, content });
      }
    },
    120_000,
  );

  it.each(ERAS)(
    "era %s (%s): lists the server's resources and templates under everything+, and reads text and blob ones",
    async (era) => {
      const config = agentConfig(era);
      const { resources } = await json<{ resources: Array<{ server: string; uri: string }> }>(config, 'resources', 'list', 'gw');
      expect(resources).toContainEqual(
        expect.objectContaining({ server: 'gw', uri: 'everything+demo://resource/static/document/architecture.md' }),
      );
      expect(resources.filter((resource) => !resource.uri.startsWith('everything+demo://'))).toEqual([]);
      const { resourceTemplates } = await json<{ resourceTemplates: Array<{ uriTemplate: string }> }>(config, 'resources', 'templates');
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
        expect.arrayContaining([
          'everything+demo://resource/dynamic/text/{resourceId}',
          'everything+demo://resource/dynamic/blob/{resourceId}',
        ]),
      );

      const text = await json<{ contents: unknown[] }>(config, 'resources', 'read', 'gw', 'everything+demo://resource/dynamic/text/3');
      expect(text.contents).toEqual([
        { uri: 'everything+demo://resource/dynamic/text/3', mimeType: 'text/plain', text: expect.stringMatching(/^Resource 3: /) },
      ]);
      const blob = await json<{ contents: Array<{ blob: string }> }>(
        config,
        'resources',
        'read',
        'gw',
        'everything+demo://resource/dynamic/blob/2',
      );
      expect(blob.contents).toEqual([
        { uri: 'everything+demo://resource/dynamic/blob/2', mimeType: 'text/plain', blob: expect.any(String) },
      ]);
      expect(Buffer.from(blob.contents[0].blob, 'base64').toString('utf8')).toMatch(/^Resource 2: This is a base64 blob/);
      // The static document read through the gateway in the CLI's own text form.
      const document = await plain(config, 'resources', 'read', 'gw', 'everything+demo://resource/static/document/architecture.md');
      expect({ code: document.code, stdout: document.stdout }).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('# Everything Server'),
      });
    },
    120_000,
  );

  it.each(ERAS)(
    "era %s (%s): lists the server's prompts under ev_ and gets them, arguments and embedded resource passed",
    async (era) => {
      const config = agentConfig(era);
      const { prompts } = await json<{ prompts: Array<{ server: string; name: string }> }>(config, 'prompts', 'list', 'gw');
      expect(prompts.map((prompt) => prompt.name)).toEqual(
        expect.arrayContaining(['ev_simple-prompt', 'ev_args-prompt', 'ev_resource-prompt']),
      );
      expect(prompts.filter((prompt) => !prompt.name.startsWith('ev_'))).toEqual([]);

      const withArgs = await json<{ messages: unknown[] }>(config, 'prompts', 'get', 'gw', 'ev_args-prompt', 'city=Lyon', 'state=Rhône');
      expect(withArgs.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Lyon, Rhône?" } }]);
      const embedding = await json<{ messages: Array<{ content: { type: string; resource?: unknown } }> }>(
        config,
        'prompts',
        'get',
        'gw',
        'ev_resource-prompt',
        'resourceType=Blob',
        'resourceId=4',
      );
      expect(embedding.messages.map((message) => message.content.type)).toEqual(['text', 'resource']);
      // An embedded resource keeps the server's own URI (docs/gateway.md), as in a forwarded tool result.
      expect(embedding.messages[1].content.resource).toMatchObject({ uri: 'demo://resource/dynamic/blob/4', blob: expect.any(String) });
    },
    120_000,
  );

  it.each(ERAS)(
    "era %s (%s): server-everything's elicitation during a call is a form on the CLI's terminal, and the answers reach the server",
    async (era) => {
      terminal = onTerminal(builtCliCommandLine(['call', 'mcp__gw__ev_trigger-elicitation-request', '--config', agentConfig(era)]), {
        cwd: REPO_ROOT,
      });
      // The server's request came through the gateway: the form names the gateway, the server the CLI knows.
      await terminal.waitFor('MCP server "gw" asks for information:');
      for (const [field, answer] of FORM) {
        await terminal.waitFor(`  ${field} (`);
        await terminal.waitFor(': ');
        terminal.type(answer);
      }
      await terminal.waitFor('Send these answers? [y/N] ');
      terminal.type('y');

      expect(await terminal.exited).toBe(0);
      // server-everything's result repeats what it got: only the answers, having reached it, can explain them.
      expect(terminal.screen).toContain('User provided the requested information!');
      expect(terminal.screen).toContain('- Name: Ada Lovelace');
      expect(terminal.screen).toContain('- Email: ada@example.com');
      expect(terminal.screen).toContain('- Birthdate: 1815-12-10');
    },
    120_000,
  );

  it.each(ERAS)(
    "era %s (%s): server-everything's sampling request during a call is answered by the CLI's model (--yes approves it)",
    async (era) => {
      const asked = llm.requests.length;
      const sampled = await json<{ isError: boolean; content: Array<{ text?: string }> }>(
        agentConfig(era),
        'call',
        'mcp__gw__ev_trigger-sampling-request',
        JSON.stringify({ prompt: `a haiku in the ${era} era`, maxTokens: 20 }),
        '--yes',
      );
      expect(sampled.isError).toBe(false);
      expect(sampled.content.map((block) => block.text ?? '').join('')).toContain('an old silent pond');
      // The server's prompt reached the model: the request came through the gateway to this CLI.
      expect(llm.requests.slice(asked).map((request) => JSON.stringify(request.body.messages))).toEqual([
        expect.stringContaining(`a haiku in the ${era} era`),
      ]);
    },
    120_000,
  );

  it.each(ERAS)(
    "era %s (%s): under annotationTrust read-only the server's read-only echo is asked about as its claim via the gateway; read-only-federated runs it unasked",
    async (era) => {
      const echo = { toolCalls: [{ name: 'mcp__gw__ev_echo', arguments: { message: `federated in ${era}` } }] };
      const model = await startScriptedLlmServer([echo, { text: 'asked' }, echo, { text: 'not asked' }]);
      try {
        const readOnly = agentConfig(era, 'read-only', model);
        const federated = agentConfig(era, 'read-only-federated', model);
        // server-everything claims its echo is read-only; the gateway marks that as the server's claim.
        expect(await plain(readOnly, 'tools')).toMatchObject({
          code: 0,
          stdout: expect.stringMatching(
            /^mcp__gw__ev_echo\s+mutating, destructive \(assumed: the upstream MCP server's claim, via the gateway, ignored\)/m,
          ),
        });
        expect(await plain(federated, 'tools')).toMatchObject({
          code: 0,
          stdout: expect.stringMatching(/^mcp__gw__ev_echo\s+read-only \(the upstream MCP server's claim, via the gateway\)/m),
        });

        // Each run where its configuration is, so that its transcript goes there (.agent-cli/), not into the repository.
        terminal = onTerminal(builtCliCommandLine(['run', 'echo it', '--config', readOnly]), { cwd: path.dirname(readOnly) });
        await terminal.waitFor(
          `Allow the tool "ev_echo" of MCP server "gw" [mutating, destructive (assumed: the upstream MCP server's claim, via the gateway, ignored)]?`,
        );
        await terminal.waitFor('Approve? [y/N] ');
        terminal.type('y');
        expect(await terminal.exited).toBe(0);
        expect(JSON.stringify(model.requests[1]?.body.messages)).toContain(`Echo: federated in ${era}`);

        // Said so explicitly, the same claim lets a script (no terminal, no --yes) run the tool.
        const script = await runBuiltCli(['run', 'echo it', '--config', federated], {
          cwd: path.dirname(federated),
          env: { PATH: process.env.PATH },
        });
        expect({ code: script.code, stderr: script.stderr }).toMatchObject({ code: ExitCode.Ok });
        expect(JSON.stringify(model.requests[3]?.body.messages)).toContain(`Echo: federated in ${era}`);
      } finally {
        await model.close();
      }
    },
    120_000,
  );
});
