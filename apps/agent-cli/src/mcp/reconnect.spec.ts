import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from '@toolmesh/test-peers/free-port';
import { EVERYTHING_SCRIPT } from '@toolmesh/test-peers/mcp-servers';
import { pidsWithCommandLine, until } from '@toolmesh/test-peers/process-table';

import { type LoopOverServers, loopOverServers, toolMessage } from '../runtime/test-support/loop-over-servers';
import type { HttpServerConfig, StdioServerConfig } from './server-config';

const ROOT = path.join(__dirname, '../../../..');
const HTTP_PEER = path.join(ROOT, 'tools/test/peers/sdk-http-server.mjs');

let session: LoopOverServers | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

/**
 * server-everything over stdio behind a shell that refuses to start it while `blocker` exists, so a
 * test can hold the server down for as long as it needs; `tag` on its command line finds its process.
 */
function everythingBehind(blocker: string, tag: string): StdioServerConfig {
  return {
    name: 'everything',
    transport: 'stdio',
    command: '/bin/sh',
    args: [
      '-c',
      `if [ -e "$BLOCKER" ]; then echo "blocked" >&2; exit 1; fi; exec "${process.execPath}" "${EVERYTHING_SCRIPT}" stdio ${tag}`,
    ],
    env: { BLOCKER: blocker },
    requestTimeoutMs: 20_000,
    annotationTrust: 'ignore',
  };
}

function status(name: string) {
  return session?.runtime.mcp.status.find((s) => s.name === name);
}

describe('reconnect (SPEC A11)', () => {
  it('restarts server-everything killed mid-chat: while it is down its tools are not offered, then its tool works again in the same session', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'reconnect-'));
    const blocker = path.join(dir, 'blocked');
    const tag = `reconnect-${process.pid}-${Date.now()}`;
    session = await loopOverServers(
      [everythingBehind(blocker, tag)],
      [
        { toolCalls: [{ id: 'before', name: 'mcp__everything__echo', arguments: { message: 'before' } }] },
        { text: 'echoed' },
        { text: 'no server tools now' },
        { toolCalls: [{ id: 'after', name: 'mcp__everything__echo', arguments: { message: 'after' } }] },
        { text: 'echoed again' },
      ],
    );
    const { loop, llm } = session;

    await loop.send('echo before');
    expect(toolMessage(llm, 'before')).toBe('Echo: before');

    writeFileSync(blocker, '');
    const [pid] = pidsWithCommandLine(tag);
    process.kill(pid, 'SIGKILL');
    await until(() => status('everything')?.state === 'down' && pidsWithCommandLine(tag).length === 0, 'the server shown as down');
    expect(status('everything')?.error).toMatch(/signal SIGKILL|blocked/);

    await loop.send('anything while it is down?');
    const whileDown = session.offered()[2];
    expect(whileDown.length).toBeGreaterThan(0); // the built-ins are still offered
    expect(whileDown.filter((name) => name.startsWith('mcp__everything__'))).toEqual([]);

    rmSync(blocker);
    await until(() => status('everything')?.state === 'connected', 'the server connected again');
    expect(pidsWithCommandLine(tag)).toHaveLength(1);

    await loop.send('echo after');
    expect(session.offered()[3]).toContain('mcp__everything__echo');
    expect(toolMessage(llm, 'after')).toBe('Echo: after');
    expect(session.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('MCP server "everything" is down'), 'MCP server "everything" is connected again']),
    );
    expect(existsSync(blocker)).toBe(false);
  });

  it('fails a call that was running when the server died, saying it may have run, and does not repeat it', async () => {
    const tag = `in-flight-${process.pid}-${Date.now()}`;
    session = await loopOverServers(
      [everythingBehind('/nonexistent/never', tag)],
      [
        { toolCalls: [{ id: 'long', name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 30, steps: 3 } }] },
        { text: 'it failed' },
      ],
    );
    const sent = session.loop.send('run the long operation');
    const [pid] = await (async () => {
      await until(() => session?.llm.requests.length === 1 && pidsWithCommandLine(tag).length === 1, 'the long call started');
      await new Promise((resolve) => setTimeout(resolve, 500)); // the call is with the server
      return pidsWithCommandLine(tag);
    })();
    process.kill(pid, 'SIGKILL');
    await sent;

    expect(toolMessage(session.llm, 'long')).toMatch(
      /^Error: .*ended while "trigger-long-running-operation" was running; it may have run, so it was not repeated \(the server process exited with signal SIGKILL/,
    );
    await until(() => status('everything')?.state === 'connected', 'the server connected again');
  });
});

describe('reconnect over Streamable HTTP', () => {
  let server: ChildProcess | undefined;
  afterEach(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await once(server, 'exit');
    }
  });

  async function startPeer(port: number): Promise<ChildProcess> {
    const child = spawn(process.execPath, [HTTP_PEER, `--port=${port}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until(() => output.includes('LISTENING'), 'the HTTP peer listening');
    return child;
  }

  async function requestsSeen(port: number): Promise<Array<{ method: string; sessionId: string | null }>> {
    return (await fetch(`http://127.0.0.1:${port}/__requests`)).json() as Promise<Array<{ method: string; sessionId: string | null }>>;
  }

  it('starts a new session when the restarted server answers 404 to the old one, and the call that got the 404 runs once on it', async () => {
    const port = await freePort();
    server = await startPeer(port);
    const config: HttpServerConfig = {
      name: 'web',
      transport: 'streamable-http',
      url: new URL(`http://127.0.0.1:${port}/mcp`),
      headers: {},
      requestTimeoutMs: 10_000,
      annotationTrust: 'ignore',
    };
    session = await loopOverServers(
      [config],
      [
        { toolCalls: [{ id: 'first', name: 'mcp__web__add', arguments: { a: 1, b: 2 } }] },
        { text: 'three' },
        { toolCalls: [{ id: 'second', name: 'mcp__web__add', arguments: { a: 2, b: 3 } }] },
        { text: 'five' },
      ],
    );
    await session.loop.send('add');
    expect(toolMessage(session.llm, 'first')).toBe('3');
    const oldSession = (await requestsSeen(port)).find((r) => r.sessionId !== null)?.sessionId;

    server.kill('SIGKILL');
    await once(server, 'exit');
    server = await startPeer(port);
    await session.loop.send('add again');

    expect(toolMessage(session.llm, 'second')).toBe('5');
    const seen = await requestsSeen(port);
    const posts = seen.filter((r) => r.method === 'POST');
    // Whatever came first with the old session was refused; then a new initialize (no session) and new-session traffic.
    const fresh = posts.findIndex((r) => r.sessionId === null);
    expect(fresh).toBeGreaterThanOrEqual(0);
    expect(posts.slice(0, fresh).every((r) => r.sessionId === oldSession)).toBe(true);
    const newSession = posts[fresh + 1]?.sessionId;
    expect(newSession).toEqual(expect.any(String));
    expect(newSession).not.toBe(oldSession);
    expect(posts.slice(fresh + 1).every((r) => r.sessionId === newSession)).toBe(true);
    expect(status('web')?.state).toBe('connected');
  });
});
