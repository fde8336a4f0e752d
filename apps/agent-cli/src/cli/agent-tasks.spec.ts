import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';

import { type ScriptedLlmServer, type ScriptedReply, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { AGENT_CLI_MAIN, runBuiltCli } from '../test-support/built-cli';
import { cliTestEnv } from '../test-support/cli-env';

/**
 * Long calls as tasks end to end (issue 47): the built CLI, a scripted model and server-everything, a real
 * 2025-11-25 server whose simulate-research-query runs as a task (about 4 s, taskSupport "required"). `run`
 * gets the handle at once, calls echo while the task runs, sleeps until the task ends and gives its result to
 * the model (the task asks for a clarification on the way: input_required, answered on tasks/result's stream); in `chat`, `/tasks cancel <id>` cancels it at the server.
 */
const RESEARCH = 'mcp__everything__simulate-research-query';

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function workspace(script: readonly ScriptedReply[]): Promise<string> {
  llm = await startScriptedLlmServer(script);
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-tasks-'));
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\nmcp:\n  servers:\n    - name: everything\n      command: ${JSON.stringify(EVERYTHING_BIN)}\n      args: [stdio]\n      annotationTrust: trust\n`,
  );
  return dir;
}

function start(dir: string, args: readonly string[]): ChildProcessWithoutNullStreams & { out: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [AGENT_CLI_MAIN, ...args, '--transcript', 'transcript.jsonl', '--yes'], {
    cwd: dir,
    env: cliTestEnv({ PATH: process.env.PATH }),
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  return Object.assign(child, { out });
}

const exited = (child: ChildProcessWithoutNullStreams) => new Promise<number | null>((resolve) => child.once('exit', resolve));

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function transcript(dir: string): Array<Record<string, unknown>> {
  return readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

it('run: the long call becomes a task, another tool runs meanwhile, the task wakes the agent and its result reaches the model', async () => {
  const dir = await workspace([
    // Ambiguous: the task asks for a clarification on the way (input_required, a form on tasks/result's stream).
    { toolCalls: [{ id: 'research', name: RESEARCH, arguments: { topic: 'tidal power', ambiguous: true } }] },
    { toolCalls: [{ id: 'echo', name: 'mcp__everything__echo', arguments: { message: 'meanwhile' } }] },
    { text: 'Waiting for the research.' },
    { text: 'The research on tidal power is done.' },
  ]);
  const child = start(dir, ['run', 'research tidal power']);
  expect(await exited(child)).toBe(0);

  const requests = llm?.requests ?? [];
  const handle = requests[1].body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'research')?.content as string;
  expect(handle).toMatch(/is running as task \S+ \(status working\)/);
  // The model's last request carries the task's result, the report server-everything wrote, as a message after its wait.
  const last = requests[requests.length - 1].body.messages;
  const delivered = last.find((m) => m.role === 'user' && String(m.content).startsWith('[Task '))?.content as string;
  expect(delivered).toContain(`of ${RESEARCH} ended (completed)`);
  expect(delivered).toContain('# Research Report: tidal power');
  // The form reached the agent's elicitation handler, which declines it without a terminal; the task went on.
  expect(delivered).toContain('**Clarification**: User declined - using default interpretation');
  expect(child.out.stdout).toContain('The research on tidal power is done.');
  expect(child.out.stderr).toMatch(/waiting for 1 task: mcp__everything__simulate-research-query \S+ working/);
  // echo's result was in before the task ended.
  const results = transcript(dir)
    .filter((e) => e.type === 'tool_result')
    .map((e) => e.name);
  expect(results).toEqual([RESEARCH, 'mcp__everything__echo', RESEARCH]);
}, 30_000);

it('chat: /tasks lists the running task, /tasks cancel <id> cancels it at the server, and its end wakes the agent', async () => {
  const dir = await workspace([
    { toolCalls: [{ id: 'research', name: RESEARCH, arguments: { topic: 'wave power' } }] },
    { text: 'Started the research.' },
    { text: 'Understood, it was cancelled.' },
  ]);
  const child = start(dir, ['chat']);
  child.stdin.write('research wave power\n');
  await until(() => child.out.stdout.includes('Started the research.'), 'the first answer');
  child.stdin.write('/tasks\n');
  const listed = /(\S+) {2}mcp__everything__simulate-research-query {2}working/;
  await until(() => listed.test(child.out.stderr), 'the /tasks listing');
  const taskId = listed.exec(child.out.stderr)?.[1] as string;
  child.stdin.write(`/tasks cancel ${taskId}\n`);
  // No line of the user's follows: the cancelled task's end alone wakes the agent, which answers.
  await until(() => child.out.stdout.includes('Understood, it was cancelled.'), 'the answer after the wake');
  child.stdin.write('/tasks\n/exit\n');
  expect(await exited(child)).toBe(0);

  expect(child.out.stderr).toContain(`task ${taskId} (${RESEARCH}) cancelled; its server reports it cancelled`);
  expect(child.out.stderr).toContain('[a task ended; the agent goes on]');
  expect(child.out.stderr).toContain('no task is running');
  const woken = llm?.requests[2].body.messages ?? [];
  expect(woken[woken.length - 1]).toMatchObject({
    role: 'user',
    content: expect.stringContaining(`the task ${taskId} was cancelled by the user`),
  });
}, 30_000);

it('tasks lists what a server holds (tasks/list, --json) and cancel says which server knew the id', async () => {
  const dir = await workspace([]);
  const env = cliTestEnv({ PATH: process.env.PATH });
  const listed = await runBuiltCli(['tasks', '--json'], { cwd: dir, env });
  expect(listed).toMatchObject({ code: 0 });
  // A fresh server-everything holds none: the list is asked (tasks/list) and empty, nothing is unlisted.
  expect(JSON.parse(listed.stdout)).toEqual({ tasks: [], unlisted: [] });
  const cancelled = await runBuiltCli(['tasks', 'cancel', 'no-such-task'], { cwd: dir, env });
  expect(cancelled.code).toBe(1);
  expect(cancelled.stderr).toMatch(/no server cancelled task no-such-task \("everything": .+\)/);
}, 30_000);
