import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { everythingConfigYaml } from '../test-support/everything-config';
import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';
import type { Terminal } from './terminal';

/**
 * Sampling, elicitation and roots (SPEC A16) as server-everything uses them over stdio: its tools that
 * need them are offered only when the client declares them. Run in-process through runCli; the
 * terminal is a scripted one (its questions recorded, its answers given in order), the model the
 * scripted server. The built CLI on a real pseudo-terminal is in terminal-pty.spec.ts.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-features-'));
let llm: ScriptedLlmServer;

beforeEach(async () => {
  llm = await startScriptedLlmServer([{ text: 'Four.' }]);
  writeFileSync(path.join(dir, 'agent-cli.yaml'), everythingConfigYaml(llm.baseUrl));
});
afterEach(() => llm.close());

/** A terminal that answers the questions with `answers` in order and records them. */
function scriptedTerminal(answers: readonly string[]): Terminal & { questions: string[] } {
  const questions: string[] = [];
  let next = 0;
  return {
    questions,
    ask: async (question) => {
      questions.push(question);
      if (next >= answers.length) throw new Error('the script has no more answers (Ctrl-D)');
      return answers[next++];
    },
    close: () => undefined,
  };
}

const cli = (args: string[], terminal?: Terminal) => runCliInProcess(args, { cwd: dir, terminal });

const SAMPLE = ['call', 'mcp__everything__trigger-sampling-request', JSON.stringify({ prompt: 'What is 2+2?', maxTokens: 20 })];

describe('sampling', () => {
  it('is answered by the configured model once the user approves it at the terminal', async () => {
    const terminal = scriptedTerminal(['y']);
    const { code, stdout } = await cli(SAMPLE, terminal);

    expect(code).toBe(ExitCode.Ok);
    expect(terminal.questions).toHaveLength(1); // call itself asks nothing: the user typed it
    expect(terminal.questions[0]).toMatch(
      /MCP server "everything" asks the model \(sampling\):\n {2}system: You are a helpful test server\.\n {2}user: .*What is 2\+2\?\n {2}\(max tokens asked: 20\)\nAllow\? \[y\/N\] $/,
    );
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0].body.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: expect.stringContaining('What is 2+2?') },
    ]);
    expect(llm.requests[0].body.tools).toBeUndefined();
    expect(stdout).toContain('"text": "Four."');
    expect(stdout).toContain('"model": "scripted-model"');
  });

  it('is refused when the user says no, and the model is not asked', async () => {
    const { code, stderr } = await cli(SAMPLE, scriptedTerminal(['n']));
    expect(code).toBe(ExitCode.Failure);
    expect(stderr).toContain('the user declined the sampling request');
    expect(llm.requests).toHaveLength(0);
  });

  it('is refused without a terminal unless --yes approves it', async () => {
    const refused = await cli(SAMPLE);
    expect(refused.code).toBe(ExitCode.Failure);
    expect(refused.stderr).toContain('refused: no terminal to ask on (--yes approves sampling)');
    expect(refused.stderr).toContain('run agent-cli with --yes to allow sampling');
    expect(llm.requests).toHaveLength(0);

    const approved = await cli([...SAMPLE, '--yes']);
    expect(approved.code).toBe(ExitCode.Ok);
    expect(approved.stderr).toContain('MCP server "everything" asked the model (sampling); approved by --yes');
    expect(approved.stdout).toContain('Four.');
  });

  it('is refused under --max-side-effect read-only without asking (the tool itself is refused first)', async () => {
    const terminal = scriptedTerminal([]);
    const { code } = await cli([...SAMPLE, '--max-side-effect', 'read-only'], terminal);
    expect(code).toBe(ExitCode.Denied);
    expect(terminal.questions).toEqual([]);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('elicitation', () => {
  const ELICIT = ['call', 'mcp__everything__trigger-elicitation-request'];

  it('is a form on the terminal: a required field, defaults kept with Enter, a wrong answer asked again, sent after a yes', async () => {
    // name, check, firstLine, email, homepage, birthdate, integer (500 is out of range, then 7), the rest by default
    const terminal = scriptedTerminal(['', 'Ada Lovelace', 'y', '', 'ada@example.com', '', '', '500', '7', '', '', '2', '', '', '', 'y']);
    const { code, stdout, stderr } = await cli(ELICIT, terminal);

    expect(code).toBe(ExitCode.Ok);
    expect(terminal.questions[0]).toMatch(/^String \(required\) - Your full, legal name\n {2}name \(text\): $/);
    expect(stderr).toContain('name is required');
    expect(stderr).toContain('at most 100');
    expect(terminal.questions.at(-1)).toBe('Send these answers? [y/N] ');
    expect(stdout).toContain('User provided the requested information');
    const raw = JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1)) as {
      action: string;
      content: Record<string, unknown>;
    };
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada Lovelace',
        check: true,
        firstLine: 'It was a dark and stormy night.',
        email: 'ada@example.com',
        integer: 7,
        number: 3.14,
        untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Piano'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-1',
      },
    });
  });

  it('ends as the user says: /decline declines, Ctrl-D cancels, a no at the end declines', async () => {
    expect((await cli(ELICIT, scriptedTerminal(['/decline']))).stdout).toContain('"action": "decline"');
    expect((await cli(ELICIT, scriptedTerminal(['Ada']))).stdout).toContain('"action": "cancel"'); // the answers end: Ctrl-D
    const fields = 13;
    expect((await cli(ELICIT, scriptedTerminal(['Ada', ...Array(fields - 1).fill(''), 'n']))).stdout).toContain('"action": "decline"');
  });

  it('is declined without a terminal, with --yes too (--yes never answers a form)', async () => {
    for (const extra of [[], ['--yes']]) {
      const { code, stdout, stderr } = await cli([...ELICIT, ...extra]);
      expect(code).toBe(ExitCode.Ok);
      expect(stdout).toContain('User declined to provide the requested information');
      expect(stderr).toContain('declined: there is no terminal to ask on (--yes never answers a form)');
    }
  });
});

describe('roots', () => {
  it('are the folders the entry names (here ".", the folder of the configuration file)', async () => {
    writeFileSync(path.join(dir, 'agent-cli.yaml'), `${everythingConfigYaml(llm.baseUrl)}      roots: [.]\n`);
    const { code, stdout } = await cli(['call', 'mcp__everything__get-roots-list']);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toContain(`Current MCP Roots (1 total)`);
    expect(stdout).toContain(`URI: ${pathToFileURL(dir).href}`);
    expect(stdout).toContain(`1. ${path.basename(dir)}`);
  });
});
