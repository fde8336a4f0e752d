import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT, type ServerProcess, spawnNodeScript } from '@toolmesh/test-peers/server-process';

import { startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { cliTestEnv } from '../test-support/cli-env';
import { ExitCode } from './exit-codes';
import { runCli } from './run-cli';
import type { Terminal } from './terminal';

/**
 * URL-mode elicitation (SPEC A25, issue 48) against a real SDK server, tools/test/peers/url-consent-peer.mjs
 * (one process for the file): its tools need the user to open a consent page on the peer's own port first,
 * asked with `-32042` at 2025-11-25 and a URL-mode input request at 2026-07-28. The CLI runs in process; the
 * person at the terminal is scripted, and the browser is test-support/headless-browser.cjs ($BROWSER), which
 * opens the page as a browser would. Without a terminal, the test reads the printed URL and opens it itself.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-url-elicitation-'));
const BROWSER = path.join(REPO_ROOT, 'apps/agent-cli/src/test-support/headless-browser.cjs');
let peer: ServerProcess;
let origin: string;
let servers: string;

beforeAll(async () => {
  const started = await spawnNodeScript(path.join(REPO_ROOT, 'tools/test/peers/url-consent-peer.mjs'), {}, /LISTENING (\S+)/);
  peer = started;
  origin = started.match[1];
  servers =
    `mcp:\n  servers:\n` +
    `    - { name: legacy, url: "${origin}/legacy", era: legacy }\n` +
    `    - { name: modern, url: "${origin}/modern", era: "2026-07-28" }\n`;
  writeFileSync(path.join(dir, 'agent-cli.yaml'), servers);
});
afterAll(() => peer?.stop());

async function peerState(): Promise<{ calls: Record<string, number>; consented: string[] }> {
  return (await fetch(`${origin}/__calls`)).json() as Promise<{ calls: Record<string, number>; consented: string[] }>;
}

/**
 * A person at the terminal: each question gets the next answer, a string or a function of the question's
 * abort signal (for "press Enter once done", which the server's word may end first).
 */
function person(answers: readonly (string | ((signal?: AbortSignal) => Promise<string>))[]): Terminal & { questions: string[] } {
  const questions: string[] = [];
  return {
    questions,
    ask: async (question, signal) => {
      questions.push(question);
      const answer = answers[questions.length - 1];
      if (answer === undefined) throw new Error('the script has no more answers (Ctrl-D)');
      return typeof answer === 'string' ? answer : answer(signal);
    },
    close: () => undefined,
  };
}

/** An Enter never typed: the question stays open until the agent ends it. */
const untilEnded = (signal?: AbortSignal) =>
  new Promise<string>((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));

/** Enter, typed once the peer has seen its consent page opened. */
const enterOnceConsented = (key: string) => async () => {
  while (!(await peerState()).consented.includes(key)) await new Promise((resolve) => setTimeout(resolve, 20));
  return '';
};

/** The CLI in process; `onStderr` sees each piece of stderr as it is written (the user reading the screen). */
async function cli(
  args: readonly string[],
  options: { terminal?: Terminal; home?: string; config?: string; browser?: string; onStderr?: (text: string) => void } = {},
) {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: (text: string) => void (out.stdout += text),
    stderr: (text: string) => {
      out.stderr += text;
      options.onStderr?.(text);
    },
    terminal: options.terminal,
  };
  const home = options.home ?? mkdtempSync(path.join(tmpdir(), 'browser-home-'));
  const env = cliTestEnv({ PATH: process.env.PATH, BROWSER: options.browser ?? BROWSER, HOME: home });
  const config = options.config ?? path.join(dir, 'agent-cli.yaml');
  const code = await runCli(['--config', config, ...args], io, { version: '0.0.0-test', cwd: dir, env });
  return { code, ...out };
}

const consentLine = (tool: string, era: string) =>
  new RegExp(`Open 127\\.0\\.0\\.1:\\d+ to continue: http://127\\.0\\.0\\.1:\\d+/consent\\?key=${tool}-${era}&id=`);

describe('on a terminal, the page is opened in the browser once the user says yes', () => {
  it('2025-11-25: a -32042 call is retried once, after the server says the consent page was completed', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'browser-home-'));
    const terminal = person(['y', untilEnded]);
    const { code, stdout, stderr } = await cli(['call', 'mcp__legacy__saas_read', '{}'], { terminal, home });

    expect(stderr).toMatch(consentLine('saas_read', 'legacy'));
    expect(stderr).toContain('asks you to open a page: Connect your SaaS account for saas_read');
    expect(terminal.questions[0]).toBe('Open it in your browser? [y/N] ');
    // The completion notification ended the wait for Enter.
    expect(terminal.questions[1]).toMatch(/^Press Enter once you are done there \(or wait: the server will say so\)/);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toContain('saas data for legacy');
    expect((await peerState()).calls['saas_read-legacy']).toBe(2);
    // The browser got the launcher's minimal environment.
    expect(existsSync(path.join(home, 'browser-env.json'))).toBe(true);
  });

  it('2026-07-28: the URL-mode input request is answered once the user says the page is done', async () => {
    const terminal = person(['y', enterOnceConsented('saas_read-modern')]);
    const { code, stdout, stderr } = await cli(['call', 'mcp__modern__saas_read', '{}'], { terminal });

    expect(stderr).toMatch(consentLine('saas_read', 'modern'));
    expect(terminal.questions).toEqual(['Open it in your browser? [y/N] ', 'Press Enter once you are done there ']);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toContain('saas data for modern');
    expect((await peerState()).calls['saas_read-modern']).toBe(2);
  });

  it.each(['legacy', 'modern'])('%s: a page that is not https (nor on this machine) is refused, never offered to open', async (era) => {
    const terminal = person([]);
    const { code, stdout, stderr } = await cli(['call', `mcp__${era}__phish`, '{}'], { terminal });

    expect(code).toBe(ExitCode.Failure);
    expect(`${stdout}${stderr}`).toContain(
      'MCP server "' +
        era +
        '" asked the user to open "http://saas.example.com/consent"; refused, not opened: a page a server sends the user to must be https',
    );
    expect(terminal.questions).toEqual([]);
    expect((await peerState()).calls[`phish-${era}`]).toBe(1);
  });
});

describe("2025-11-25's elicitation/create in URL mode", () => {
  it('is accepted once the user opened the page (the server follows the rest), and declined without a terminal', async () => {
    const terminal = person(['y']);
    const opened = await cli(['call', 'mcp__legacy__connect', '{}'], { terminal });
    expect(opened.stderr).toMatch(consentLine('connect', 'legacy'));
    expect(terminal.questions).toEqual(['Open it in your browser? [y/N] ']);
    expect(opened).toMatchObject({ code: ExitCode.Ok, stdout: expect.stringContaining('consent accept') });

    const printed = await cli(['call', 'mcp__legacy__connect', '{}']);
    expect(printed.stderr).toMatch(consentLine('connect', 'legacy'));
    expect(printed).toMatchObject({ code: ExitCode.Ok, stdout: expect.stringContaining('consent decline') });
  });
});

describe('a page not finished', () => {
  it('fails the call when the user says no, and a browser still running ends with the agent', async () => {
    const declined = await cli(['call', 'mcp__legacy__stubborn', '{}'], { terminal: person(['n']) });
    expect(declined.code).toBe(ExitCode.Failure);
    expect(`${declined.stdout}${declined.stderr}`).toMatch(/needs the user to open 127\.0\.0\.1:\d+ first: the user declined to open it/);

    // A browser that never exits: it is ended when the agent is.
    const home = mkdtempSync(path.join(tmpdir(), 'browser-home-'));
    const lingering = path.join(home, 'lingering-browser.sh');
    writeFileSync(lingering, '#!/bin/sh\necho $$ > "$HOME/browser.pid"\nexec sleep 60\n');
    chmodSync(lingering, 0o755);
    const pidFile = path.join(home, 'browser.pid');
    const waitForPid = async () => {
      while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') await new Promise((resolve) => setTimeout(resolve, 20));
      return '';
    };
    const opened = await cli(['call', 'mcp__legacy__stubborn', '{}'], { terminal: person(['y', waitForPid]), home, browser: lingering });
    expect(opened.code).toBe(ExitCode.Failure);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; alive() && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive()).toBe(false);
  });

  it('fails the call after serverRequests.urlWaitMs, naming the limit', async () => {
    const config = path.join(dir, 'agent-short-wait.yaml');
    writeFileSync(config, servers.replace('era: legacy }', 'era: legacy, serverRequests: { urlWaitMs: 300 } }'));
    const { code, stdout, stderr } = await cli(['call', 'mcp__legacy__stubborn', '{}'], { config });
    expect(code).toBe(ExitCode.Failure);
    expect(`${stdout}${stderr}`).toContain('it was not done within serverRequests.urlWaitMs (300 ms); open it, then call the tool again');
  });
});

describe('without a terminal, the page is printed and never opened', () => {
  it('2025-11-25: the agent waits for the completion notification, retries once, and a second -32042 fails the call', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'browser-home-'));
    const before = (await peerState()).calls['stubborn-legacy'] ?? 0;
    const opened: Promise<unknown>[] = [];
    const { code, stdout, stderr } = await cli(['call', 'mcp__legacy__stubborn', '{}'], {
      home,
      // The user reads the printed URL and opens it.
      onStderr: (text) => {
        const url = /to continue: (\S+)/.exec(text)?.[1];
        if (url) opened.push(fetch(url).then((res) => res.text()));
      },
    });
    await Promise.all(opened);

    expect(stderr).toMatch(consentLine('stubborn', 'legacy'));
    expect(opened).toHaveLength(1);
    expect(code).toBe(ExitCode.Failure);
    expect(`${stdout}${stderr}`).toContain(
      'MCP server "legacy" still asks for a URL to be opened after the user opened it; the call is not retried again',
    );
    expect((await peerState()).calls['stubborn-legacy']).toBe(before + 2);
    expect(existsSync(path.join(home, 'browser-env.json'))).toBe(false);
  });

  it('2026-07-28: with nobody to say when the page is done, the call fails saying to open it and call again', async () => {
    const { code, stdout, stderr } = await cli(['call', 'mcp__modern__stubborn', '{}']);

    expect(stderr).toMatch(consentLine('stubborn', 'modern'));
    expect(code).toBe(ExitCode.Failure);
    expect(`${stdout}${stderr}`).toMatch(
      /MCP server "modern" needs the user to open 127\.0\.0\.1:\d+ first: there is no terminal to say when it is done: open it, then call the tool again/,
    );
  });
});

describe('in the agent loop', () => {
  it("--yes approves the model's call as before, and never the page: it is opened only after the user's yes", async () => {
    const llm = await startScriptedLlmServer([{ toolCalls: [{ name: 'mcp__legacy__saas_write', arguments: {} }] }, { text: 'Written.' }]);
    try {
      const config = path.join(dir, 'agent-llm.yaml');
      writeFileSync(config, `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\n${servers}`);
      const terminal = person(['y', untilEnded]);
      const { code, stdout } = await cli(['run', '--yes', 'write it to the SaaS'], { terminal, config });

      // No approval question (--yes), the page's question still asked.
      expect(terminal.questions).toEqual([
        'Open it in your browser? [y/N] ',
        expect.stringMatching(/^Press Enter once you are done there/),
      ]);
      expect(code).toBe(ExitCode.Ok);
      expect(stdout).toContain('Written.');
      expect(JSON.stringify(llm.requests[1].body.messages)).toContain('saas data for legacy');
      expect((await peerState()).calls['saas_write-legacy']).toBe(2);
    } finally {
      await llm.close();
    }
  });
});
