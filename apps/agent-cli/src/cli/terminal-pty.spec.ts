import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';
import { pidsWithCommandLine } from '@toolmesh/test-peers/process-table';

import { startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { AGENT_CLI_MAIN } from '../test-support/built-cli';
import { onTerminal, type TerminalSession } from '../test-support/terminal-session';

/**
 * The built CLI on a real terminal: it runs under util-linux `script`, which gives it a pseudo-terminal
 * (stdin and stderr are TTYs, so the CLI opens its readline), and the test types once a question is on
 * the screen. server-everything's elicitation tool answered through the form; a server's warning while
 * the chat waits at its prompt.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-pty-'));
/** The test's terminal, killed after it if still running. */
let session: TerminalSession | undefined;

beforeAll(() => {
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `mcp:\n  servers:\n    - name: everything\n      command: ${JSON.stringify(EVERYTHING_BIN)}\n      args: [stdio]\n`,
  );
});
afterEach(() => session?.kill());

const onTerminalHere = (command: string, term?: string) => (session = onTerminal(command, { cwd: dir, term }));

describe('elicitation on a terminal', () => {
  it('asks each field, keeps the defaults on Enter, and sends the answers after a yes', async () => {
    const terminal = onTerminalHere(
      `${JSON.stringify(process.execPath)} ${JSON.stringify(AGENT_CLI_MAIN)} call mcp__everything__trigger-elicitation-request`,
    );
    // [what appears, what is typed then (nothing: only wait)]
    const answers: Array<[string, string?]> = [
      ['name (text): ', 'Grace Hopper'],
      ['check (y/n): ', 'yes'],
      ['firstLine (text) [It was a dark and stormy night.]: ', ''],
      ['email (email): ', 'not-an-email'],
      ['not an email address'],
      ['email (email): ', 'grace@example.com'],
      ['homepage (uri): ', ''],
      ['birthdate (date): ', '1906-12-09'],
      ['integer (whole number) [42]: ', ''],
      ['number (number) [3.14]: ', '2.5'],
      ['untitledSingleSelectEnum (number or value) [Monica]: ', 'Joey'],
      ['untitledMultipleSelectEnum (numbers or values, comma-separated) [Guitar]: ', '1, 3'],
      ['titledSingleSelectEnum (number or value) [hero-1]: ', '3'],
      ['titledMultipleSelectEnum (numbers or values, comma-separated) [fish-1]: ', ''],
      ['legacyTitledEnum (number or value) [pet-1]: ', '2'],
      ['Send these answers? [y/N] ', 'y'],
    ];
    await terminal.waitFor('MCP server "everything" asks for information:');
    for (const [question, answer] of answers) {
      await terminal.waitFor(question);
      if (answer !== undefined) terminal.type(answer);
    }

    expect(await terminal.exited).toBe(0);
    expect(terminal.screen).toContain('User provided the requested information!');
    expect(terminal.screen).toContain('- Name: Grace Hopper');
    expect(terminal.screen).toContain('- Email: grace@example.com');
    expect(terminal.screen).toContain('- Birthdate: 1906-12-09');
    expect(terminal.screen).toContain('- Favorite Integer: 42');
    expect(terminal.screen).toContain('- Favorite Number: 2.5');
    expect(terminal.screen).toMatch(/"untitledMultipleSelectEnum": \[\s*"Guitar",\s*"Violin"\s*\]/);
    expect(terminal.screen).toContain('"titledSingleSelectEnum": "hero-3"');
    expect(terminal.screen).toContain('"legacyTitledEnum": "pet-2"');
    expect(terminal.screen).not.toContain('warning');
  });

  it('cancels the form on Ctrl-D', async () => {
    const terminal = onTerminalHere(
      `${JSON.stringify(process.execPath)} ${JSON.stringify(AGENT_CLI_MAIN)} call mcp__everything__trigger-elicitation-request`,
    );
    await terminal.waitFor('name (text): ');
    terminal.press('\x04');

    expect(await terminal.exited).toBe(0);
    expect(terminal.screen).toContain('User cancelled the elicitation dialog');
  });
});

describe('chat on a terminal', () => {
  it("writes a server's warning above the prompt and redraws the prompt with what was typed", async () => {
    const llm = await startScriptedLlmServer([{ text: 'Hello to you.' }]);
    const marker = mkdtempSync(path.join(tmpdir(), 'agent-cli-pty-chat-'));
    writeFileSync(
      path.join(marker, 'agent-cli.yaml'),
      `llm: { baseUrl: ${llm.baseUrl}, model: m }\nmcp:\n  servers:\n    - name: everything\n      command: ${JSON.stringify(EVERYTHING_BIN)}\n      args: [stdio, ${JSON.stringify(marker)}]\n`,
    );
    try {
      // A terminal that can move the cursor: readline redraws the typed line only there (with TERM=dumb it writes the prompt alone).
      const terminal = onTerminalHere(
        `cd ${JSON.stringify(marker)} && ${JSON.stringify(process.execPath)} ${JSON.stringify(AGENT_CLI_MAIN)} chat`,
        'xterm',
      );
      await terminal.waitFor('/exit to leave.');
      await terminal.waitFor('> ');
      terminal.press('hel');
      await terminal.waitFor('hel');
      const server = pidsWithCommandLine(marker).filter((pid) => pidsWithCommandLine('mcp-server-everything').includes(pid));
      expect(server).toHaveLength(1);
      process.kill(server[0], 'SIGKILL');
      await terminal.waitFor('MCP server "everything" is down');
      await terminal.waitFor('\x1b[0J> hel'); // the prompt and the typed text, written again below the warning
      terminal.type('lo');
      await terminal.waitFor('Hello to you.');
      terminal.type('/exit');

      expect(await terminal.exited).toBe(0);
      expect(terminal.screen).toContain('\r\x1b[Kwarning: MCP server "everything" is down'); // the prompt's line erased first
      expect(llm.requests[0].body.messages.at(-1)).toEqual({ role: 'user', content: 'hello' });
    } finally {
      await llm.close();
    }
  });
});
