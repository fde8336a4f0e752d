import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { AGENT_CLI_MAIN } from '../test-support/built-cli';
import { cliTestEnv } from '../test-support/cli-env';

/**
 * `agent-cli chat` as a person uses it: the built CLI on a pseudo-terminal (util-linux `script` gives it
 * one; the test types into it), a scripted model in place of the LLM, and piped input without a terminal.
 */

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function workspace(script: Parameters<typeof startScriptedLlmServer>[0]): Promise<{ dir: string; llm: ScriptedLlmServer }> {
  llm = await startScriptedLlmServer(script);
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-chat-'));
  writeFileSync(path.join(dir, 'agent-cli.yaml'), `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\n`);
  return { dir, llm };
}

/** A child on a pseudo-terminal whose output the test reads in order, like a person watching the screen. */
class PtySession {
  private output = '';
  private cursor = 0;
  readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', resolve));
  }

  static start(command: string, cwd: string): PtySession {
    return new PtySession(
      spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: cliTestEnv({ PATH: process.env.PATH, TERM: 'dumb' }) }),
    );
  }

  /** Waits until `text` appears after what was already seen, and moves past it. */
  async see(text: string, timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (this.output.indexOf(text, this.cursor) === -1) {
      if (Date.now() > end)
        throw new Error(`never saw ${JSON.stringify(text)}; the screen after the last step:\n${this.output.slice(this.cursor)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.cursor = this.output.indexOf(text, this.cursor) + text.length;
  }

  type(line: string): void {
    this.child.stdin.write(`${line}\r`);
  }

  /** Keys as they are, e.g. Ctrl-C (\x03). */
  press(keys: string): void {
    this.child.stdin.write(keys);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}

describe('agent-cli chat', () => {
  it('asks for approval on the same terminal as the chat: y writes the file, n denies and the model is told', async () => {
    const { dir, llm: server } = await workspace([
      { toolCalls: [{ id: 'yes', name: 'Write', arguments: { path: 'chat.txt', content: 'approved in chat\n' } }] },
      { text: 'Wrote chat.txt.' },
      { toolCalls: [{ id: 'no', name: 'Write', arguments: { path: 'denied.txt', content: 'x' } }] },
      { text: 'Left it alone.' },
    ]);
    const pty = PtySession.start(`${process.execPath} ${AGENT_CLI_MAIN} chat --transcript transcript.jsonl`, dir);
    try {
      await pty.see('> ');
      pty.type('please write chat.txt');
      await pty.see('Allow Write [mutating, destructive]? (it is destructive)');
      await pty.see('Approve? [y/N] ');
      pty.type('y');
      await pty.see('Wrote chat.txt.');
      await pty.see('> ');
      expect(readFileSync(path.join(dir, 'chat.txt'), 'utf8')).toBe('approved in chat\n');

      pty.type('and denied.txt');
      await pty.see('Approve? [y/N] ');
      pty.type('n');
      await pty.see('Left it alone.');
      await pty.see('> ');
      pty.type('/exit');
      expect(await pty.exited).toBe(0);
    } finally {
      pty.kill();
    }
    expect(existsSync(path.join(dir, 'denied.txt'))).toBe(false);
    const requests = server.requests.map((r) => r.body.messages);
    expect(requests[3].filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['please write chat.txt', 'and denied.txt']); // one conversation
    expect(requests[3].at(-1)).toEqual({ role: 'tool', tool_call_id: 'no', content: 'Error: the user declined Write' });
    const entries = readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries[0]).toMatchObject({ type: 'session_start', command: 'chat', approver: 'terminal' });
    expect(entries.filter((e) => e.type === 'approval').map((e) => [e.allowed, e.by])).toEqual([
      [true, 'user'],
      [false, 'user'],
    ]);
    expect(entries.at(-1)).toMatchObject({ type: 'end', outcome: 'done' });
  });

  it('Ctrl-C while the model thinks aborts the request, records the interruption and exits 130', async () => {
    const { dir, llm: server } = await workspace([{ hang: true }]);
    const pty = PtySession.start(`${process.execPath} ${AGENT_CLI_MAIN} chat --transcript transcript.jsonl`, dir);
    try {
      await pty.see('> ');
      pty.type('think hard');
      while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      pty.press('\x03');
      expect(await pty.exited).toBe(130);
    } finally {
      pty.kill();
    }
    const entries = readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.at(-1)).toMatchObject({ type: 'end', outcome: 'interrupted' });
  });

  it('reads its messages from piped stdin without a terminal, denies what needs approval, and ends at EOF', async () => {
    const { dir, llm: server } = await workspace([
      { text: 'Hello!' },
      { toolCalls: [{ id: 'w', name: 'Write', arguments: { path: 'piped.txt', content: 'x' } }] },
      { text: 'I was not allowed.' },
    ]);
    const child = spawn(process.execPath, [AGENT_CLI_MAIN, 'chat'], { cwd: dir, env: cliTestEnv({ PATH: process.env.PATH }) });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end('hi\n\nwrite piped.txt\n');
    const code = await new Promise((resolve) => child.once('exit', resolve));

    expect(code).toBe(0);
    expect(stdout).toBe('Hello!\nI was not allowed.\n');
    expect(existsSync(path.join(dir, 'piped.txt'))).toBe(false);
    expect(server.requests[2].body.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('no terminal to ask on; run with --yes'),
    });
  });
});
