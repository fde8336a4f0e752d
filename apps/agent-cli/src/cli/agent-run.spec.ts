import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';
import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';

import { type Script, type ScriptedLlmServer, startScriptedLlmServer, unreachableBaseUrl } from '../agent/test-support/scripted-llm-server';
import { AGENT_CLI_MAIN, type CliRun, runBuiltCli } from '../test-support/built-cli';
import { cliTestEnv } from '../test-support/cli-env';
import { ExitCode } from './exit-codes';

/**
 * `agent-cli run` as a user runs it: the built CLI as a child process, real MCP servers from npm over
 * stdio (server-everything, server-memory), and a scripted OpenAI-compatible server in place of the model.
 */
const ROOT = path.join(__dirname, '../../../..');
const BIN = path.join(ROOT, 'node_modules/.bin');

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

interface Workspace {
  readonly dir: string;
  readonly memoryFile: string;
}

/** A fresh directory with a config naming the servers and the scripted model, and a file to read. */
function workspace(baseUrl: string, llmExtra = ''): Workspace {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-run-'));
  const memoryFile = path.join(dir, 'memory.jsonl');
  writeFileSync(path.join(dir, 'notes.txt'), 'the answer is 42\n');
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:
  baseUrl: ${baseUrl}
  model: scripted-model
${llmExtra}mcp:
  servers:
    - name: everything
      command: ${JSON.stringify(EVERYTHING_BIN)}
      args: [stdio]
      annotationTrust: trust
    - name: memory
      command: ${JSON.stringify(path.join(BIN, 'mcp-server-memory'))}
      args: [${JSON.stringify(dir)}] # unused by the server: marks its process for the tests
      env: { MEMORY_FILE_PATH: ${JSON.stringify(memoryFile)} }
      annotationTrust: ignore
`,
  );
  return { dir, memoryFile };
}

async function scripted(script: Script, llmExtra = ''): Promise<Workspace & { llm: ScriptedLlmServer }> {
  llm = await startScriptedLlmServer(script);
  return { ...workspace(llm.baseUrl, llmExtra), llm };
}

function cli(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runBuiltCli(args, { cwd: dir, env: { PATH: process.env.PATH, ...env } });
}

type Entry = { type: string; turn: number; ts: string; [key: string]: unknown };
function transcript(dir: string, file = 'transcript.jsonl'): Entry[] {
  return readFileSync(path.join(dir, file), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Entry);
}

/** The `tool` messages of a recorded request, by tool_call_id. */
function toolMessages(server: ScriptedLlmServer, request: number): Record<string, string> {
  return Object.fromEntries(
    server.requests[request].body.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id as string, m.content as string]),
  );
}

const write = { id: 'w', name: 'Write', arguments: { path: 'out.txt', content: 'written by the agent\n' } };
const remember = {
  id: 'm',
  name: 'mcp__memory__create_entities',
  arguments: { entities: [{ name: 'toolmesh', entityType: 'project', observations: ['built by the test'] }] },
};

describe('agent-cli run', () => {
  it('runs a built-in and an MCP tool the model asks for, sends both results back, and records every step', async () => {
    const { dir, llm: server } = await scripted([
      {
        text: 'Let me look.',
        toolCalls: [
          { id: 'r', name: 'Read', arguments: { path: 'notes.txt' } },
          { id: 'e', name: 'mcp__everything__echo', arguments: { message: 'hello mcp' } },
        ],
      },
      { text: 'The notes say the answer is 42.' },
    ]);

    const { code, stdout, stderr } = await cli(dir, ['run', 'What do my notes say?', '--transcript', 'transcript.jsonl']);

    expect({ code, stderr }).toMatchObject({ code: 0, stderr: expect.stringContaining('[Read: ok]') });
    expect(stdout).toBe('Let me look.\nThe notes say the answer is 42.\n');
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests.map((r) => r.body);
    expect(first).toMatchObject({
      model: 'scripted-model',
      stream: true,
      messages: [{ role: 'system' }, { role: 'user', content: 'What do my notes say?' }],
    });
    const offered = new Map(first.tools?.map((t) => [t.function.name, t.function.parameters]));
    expect(offered.get('Read')).toMatchObject({ type: 'object', additionalProperties: false });
    expect(offered.get('mcp__everything__echo')).toMatchObject({ properties: { message: expect.anything() } }); // the server's schema, untouched
    expect(offered.has('mcp__memory__read_graph')).toBe(true);
    // Turn 2 carries the assistant's calls and one tool message per call with its result.
    expect(second.messages[2]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'r', function: { name: 'Read' } },
        { id: 'e', function: { name: 'mcp__everything__echo' } },
      ],
    });
    expect(toolMessages(server, 1)).toEqual({ r: 'the answer is 42', e: 'Echo: hello mcp' });

    const entries = transcript(dir);
    expect(entries.map((e) => e.type)).toEqual([
      'session_start',
      'user',
      'assistant',
      'tool_call',
      'approval',
      'tool_result',
      'tool_call',
      'approval',
      'tool_result',
      'assistant',
      'end',
    ]);
    expect(entries.map((e) => e.turn)).toEqual([0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2]);
    expect(entries[0]).toMatchObject({ model: 'scripted-model', baseUrl: server.baseUrl, cap: 'destructive', approver: 'non-interactive' });
    expect(entries[3]).toMatchObject({ name: 'Read', args: { path: 'notes.txt' } });
    expect(entries[4]).toMatchObject({ name: 'Read', allowed: true, by: 'not-needed' });
    expect(entries[8]).toMatchObject({ name: 'mcp__everything__echo', isError: false, text: 'Echo: hello mcp' });
    expect(entries[10]).toMatchObject({ outcome: 'done' });
    expect(entries.every((e) => !Number.isNaN(Date.parse(e.ts)))).toBe(true);
  });

  it('prints the final result as JSON with --json, and writes the transcript under .agent-cli/transcripts by default', async () => {
    const { dir } = await scripted([{ text: 'Nothing to do.' }]);
    const { code, stdout } = await cli(dir, ['run', 'hi', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { outcome: string; text: string; transcript: string };
    expect(result).toMatchObject({ outcome: 'done', text: 'Nothing to do.' });
    expect(path.relative(dir, result.transcript)).toMatch(/^\.agent-cli\/transcripts\/.+\.jsonl$/);
    expect(transcript(dir, path.relative(dir, result.transcript)).map((e) => e.type)).toEqual([
      'session_start',
      'user',
      'assistant',
      'end',
    ]);
  });

  it('turns malformed arguments and an unknown tool name into error results for the model, and goes on', async () => {
    const { dir, llm: server } = await scripted([
      {
        toolCalls: [
          { id: 'bad', name: 'Read', arguments: '{"path": ' },
          { id: 'ghost', name: 'mcp__nowhere__tool', arguments: {} },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const { code } = await cli(dir, ['run', 'try', '--transcript', 'transcript.jsonl']);
    expect(code).toBe(0);
    expect(toolMessages(server, 1)).toEqual({
      bad: expect.stringMatching(/^Error: the arguments for Read are not valid JSON/),
      ghost: expect.stringMatching(/^Error: there is no tool named "mcp__nowhere__tool"/),
    });
    expect(
      transcript(dir)
        .filter((e) => e.type === 'tool_result')
        .map((e) => e.isError),
    ).toEqual([true, true]);
  });

  it('stops a model that keeps asking for tools with the max-turns guard (exit 6)', async () => {
    const { dir, llm: server } = await scripted(
      () => ({ toolCalls: [{ name: 'Read', arguments: { path: 'notes.txt' } }] }),
      '  maxTurns: 10\n',
    );
    const { code, stderr } = await cli(dir, ['run', 'loop forever', '--max-turns', '3', '--transcript', 'transcript.jsonl']);
    expect(code).toBe(ExitCode.MaxTurns);
    expect(stderr).toContain(
      'the model was still asking for tools after 3 turns; stopped by the max-turns guard (raise llm.maxTurns or --max-turns)',
    );
    expect(server.requests).toHaveLength(3);
    expect(transcript(dir).at(-1)).toMatchObject({ type: 'end', outcome: 'max_turns', turn: 3 });
  });
});

describe('agent-cli run: interruptions and a transcript that cannot be written', () => {
  it('Ctrl-C aborts the model request in flight, records the interruption, closes the servers and exits 130', async () => {
    const { dir, llm: server } = await scripted([{ hang: true }]);
    const child = spawn(process.execPath, [AGENT_CLI_MAIN, 'run', 'wait', '--transcript', 'transcript.jsonl'], {
      cwd: dir,
      env: cliTestEnv({ PATH: process.env.PATH }),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      expect(await eventually(() => server.requests.length === 1, 30_000)).toBe(true);
      expect(pidsWithCommandLine(dir)).toHaveLength(1); // server-memory runs
      child.kill('SIGINT');
      expect(await exited).toBe(ExitCode.Interrupted);
    } finally {
      child.kill('SIGKILL');
    }
    expect(transcript(dir).slice(-2)).toMatchObject([
      { type: 'error', message: 'interrupted' },
      { type: 'end', outcome: 'interrupted' },
    ]);
    expect(await eventually(() => pidsWithCommandLine(dir).length === 0)).toBe(true);
  });

  it('warns when the transcript cannot be written, and still does the task', async () => {
    const { dir } = await scripted([{ toolCalls: [{ name: 'Read', arguments: { path: 'notes.txt' } }] }, { text: 'Done.' }]);
    const { code, stdout, stderr } = await cli(dir, ['run', 'read', '--transcript', 'notes.txt/transcript.jsonl']);
    expect(code).toBe(0);
    expect(stdout).toBe('Done.\n');
    expect(stderr).toMatch(
      /warning: the transcript .*notes\.txt\/transcript\.jsonl cannot be written \(\w+\); the session goes on without it/,
    );
  });
});

describe('agent-cli run: the approval gate', () => {
  it('treats a built-in and an MCP tool with the same declaration alike: without a terminal and --yes both are denied, and the model is told', async () => {
    const { dir, memoryFile, llm: server } = await scripted([{ toolCalls: [write, remember] }, { text: 'I could not.' }]);

    const { code, stderr } = await cli(dir, ['run', 'save things', '--transcript', 'transcript.jsonl']);

    // The model was told and finished, but nothing it asked for ran (SPEC A20).
    expect(code).toBe(ExitCode.Denied);
    expect(stderr).toContain('every tool call (2) was refused');
    const results = toolMessages(server, 1);
    expect(results.w).toMatch(/^Error: Write needs approval \(it is destructive\), but there is no terminal to ask on; run with --yes/);
    expect(results.m).toMatch(
      /^Error: mcp__memory__create_entities needs approval \(it is destructive\), but there is no terminal to ask on; run with --yes/,
    );
    expect(existsSync(path.join(dir, 'out.txt'))).toBe(false);
    expect(existsSync(memoryFile)).toBe(false); // server-memory never wrote its graph
    const approvals = transcript(dir).filter((e) => e.type === 'approval');
    expect(approvals.map(({ name, allowed, by }) => ({ name, allowed, by }))).toEqual([
      { name: 'Write', allowed: false, by: 'non-interactive' },
      { name: 'mcp__memory__create_entities', allowed: false, by: 'non-interactive' },
    ]);
  });

  it('exits 0 when some of the calls ran and others were refused', async () => {
    const { dir } = await scripted([
      { toolCalls: [{ id: 'r', name: 'Read', arguments: { path: 'notes.txt' } }, write] },
      { text: 'Read it, could not write.' },
    ]);
    expect(await cli(dir, ['run', 'read and save', '--transcript', 'transcript.jsonl'])).toMatchObject({ code: ExitCode.Ok });
  });

  it('runs both with --yes', async () => {
    const { dir, memoryFile, llm: server } = await scripted([{ toolCalls: [write, remember] }, { text: 'Saved.' }]);
    const { code } = await cli(dir, ['run', 'save things', '--yes', '--transcript', 'transcript.jsonl']);
    expect(code).toBe(0);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('written by the agent\n');
    expect(readFileSync(memoryFile, 'utf8')).toContain('built by the test');
    expect(toolMessages(server, 1).m).toContain('toolmesh');
    expect(
      transcript(dir)
        .filter((e) => e.type === 'approval')
        .map((e) => [e.allowed, e.by]),
    ).toEqual([
      [true, 'flag'],
      [true, 'flag'],
    ]);
  });

  it('--max-side-effect read-only refuses both without running them, even with --yes', async () => {
    const { dir, memoryFile, llm: server } = await scripted([{ toolCalls: [write, remember] }, { text: 'Refused.' }]);
    const { code } = await cli(dir, ['run', 'save things', '--yes', '--max-side-effect', 'read-only', '--transcript', 'transcript.jsonl']);
    expect(code).toBe(ExitCode.Denied);
    expect(toolMessages(server, 1)).toEqual({
      w: 'Error: Write is destructive, above --max-side-effect read-only; it was not run',
      m: 'Error: mcp__memory__create_entities is destructive, above --max-side-effect read-only; it was not run',
    });
    expect(existsSync(path.join(dir, 'out.txt'))).toBe(false);
    expect(existsSync(memoryFile)).toBe(false);
    expect(
      transcript(dir)
        .filter((e) => e.type === 'approval')
        .map((e) => [e.allowed, e.by]),
    ).toEqual([
      [false, 'cap'],
      [false, 'cap'],
    ]);
  });
});

describe('agent-cli run: LLM failures', () => {
  it('says where it tried to connect when nothing listens there (exit 1)', async () => {
    const baseUrl = await unreachableBaseUrl();
    const { dir } = workspace(baseUrl);
    const { code, stderr } = await cli(dir, ['run', 'hi', '--transcript', 'transcript.jsonl']);
    expect(code).toBe(ExitCode.Failure);
    expect(stderr).toContain(`cannot reach the LLM server at ${baseUrl} (ECONNREFUSED); start it, or set llm.baseUrl`);
    expect(stderr).toContain('[llm.unreachable]');
    expect(transcript(dir).slice(-2)).toMatchObject([
      { type: 'error', code: 'llm.unreachable' },
      { type: 'end', outcome: 'error' },
    ]);
  });

  it("names the key's variable on 401 and sends the key, but never prints it (exit 1)", async () => {
    const { dir, llm: server } = await scripted(
      [{ status: 401, body: '{"error":{"message":"invalid api key"}}' }],
      '  apiKeyEnv: LOOP_TEST_KEY\n',
    );
    const { code, stderr } = await cli(dir, ['run', 'hi', '--transcript', 'transcript.jsonl'], { LOOP_TEST_KEY: 'sk-loop-secret' });
    expect(code).toBe(ExitCode.Failure);
    expect(stderr).toContain('refused the request (HTTP 401: invalid api key); check the key in the environment variable LOOP_TEST_KEY');
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-loop-secret');
    expect(stderr).not.toContain('sk-loop-secret');
    expect(readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')).not.toContain('sk-loop-secret');
  });

  it('calls a malformed stream malformed (exit 1)', async () => {
    const { dir } = await scripted([{ raw: 'data: {"choices": [{"delta": {"content": 1}}]}\n\n', contentType: 'text/event-stream' }]);
    const { code, stderr } = await cli(dir, ['run', 'hi']);
    expect(code).toBe(ExitCode.Failure);
    expect(stderr).toContain('the LLM server\'s reply is not a chat completion: "delta.content" is not a string [llm.malformed_response]');
  });

  it('asks for a model before starting any server when there is none (exit 3), and for a set key variable', async () => {
    const { dir } = workspace(await unreachableBaseUrl());
    writeFileSync(path.join(dir, 'no-model.yaml'), 'mcp:\n  servers: []\n');
    const noModel = await cli(dir, ['run', 'hi', '--config', 'no-model.yaml']);
    expect(noModel).toMatchObject({ code: ExitCode.Config, stderr: expect.stringContaining('set llm.model in') });
    expect(noModel.stderr).toContain('or pass --model <name>');
    writeFileSync(path.join(dir, 'key.yaml'), 'llm:\n  model: m\n  apiKeyEnv: LOOP_UNSET_KEY\n');
    expect(await cli(dir, ['run', 'hi', '--config', 'key.yaml'])).toMatchObject({
      code: ExitCode.Config,
      stderr: expect.stringContaining('LOOP_UNSET_KEY, which is not set'),
    });
  });
});
