import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';

/**
 * Agent Skills end to end: a real MCP server process serving skills the SEP-2640 way
 * (tools/test/peers/skills-mcp-server.mjs), a local skills folder, the CLI run in process through runCli,
 * and a scripted OpenAI-compatible model that needs a skill's instructions it can only see by loading them.
 */
const PEER = path.join(REPO_ROOT, 'tools/test/peers/skills-mcp-server.mjs');
const SECRET_STEP = 'call issue_refund with the order and the amount';

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** A folder with the server's skills (`refunds`) and a local one (`notes`), and a configuration naming both. */
function workspace(baseUrl: string, peerFlags: string[] = []): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-skills-'));
  const served = path.join(dir, 'served');
  mkdirSync(path.join(served, 'refunds'), { recursive: true });
  writeFileSync(
    path.join(served, 'refunds', 'SKILL.md'),
    `---\nname: refunds\ndescription: How this shop refunds an order\n---\nTo refund, ${SECRET_STEP}. Nothing else.\n`,
  );
  mkdirSync(path.join(dir, 'local', 'notes'), { recursive: true });
  writeFileSync(path.join(dir, 'local', 'notes', 'SKILL.md'), '---\nname: notes\ndescription: How to take notes\n---\nWrite them down.\n');
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:
  baseUrl: ${baseUrl}
  model: scripted-model
skills:
  folders: [local]
mcp:
  servers:
    - name: billing
      command: ${JSON.stringify(process.execPath)}
      args: ${JSON.stringify([PEER, `--folder=${served}`, ...peerFlags])}
`,
  );
  return dir;
}

const cli = (dir: string, args: string[]) => runCliInProcess(args, { cwd: dir });

describe('agent-cli skills', () => {
  it("lists the server's and the folder's skills by origin, as a table and as JSON", async () => {
    const dir = workspace('http://127.0.0.1:9/v1');
    const table = await cli(dir, ['skills']);
    expect(table).toMatchObject({ code: ExitCode.Ok });
    expect(table.stdout).toMatch(/^SKILL\s+ORIGIN\s+DESCRIPTION\s+URI\n/);
    expect(table.stdout).toMatch(/refunds\s+mcp:billing\s+How this shop refunds an order\s+skill:\/\/refunds\/SKILL\.md/);

    const json = await cli(dir, ['skills', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      skills: [
        { name: 'refunds', description: 'How this shop refunds an order', origin: 'mcp:billing', uri: 'skill://refunds/SKILL.md' },
        {
          name: 'notes',
          description: 'How to take notes',
          origin: `folder:${path.join(dir, 'local')}`,
          uri: expect.stringMatching(/^file:\/\/.*\/local\/notes\/SKILL\.md$/),
        },
      ],
      problems: [],
    });
  });

  // Whether or not a gateway runs on its port (without one: exit 4 and the local skill alone).
  it('config/examples/agent-skills.yaml offers the skill in the folder beside it', async () => {
    const example = path.join(REPO_ROOT, 'config/examples/agent-skills.yaml');
    const { stdout } = await cli(REPO_ROOT, ['skills', '--json', '--config', example]);
    expect(JSON.parse(stdout).skills).toContainEqual(
      expect.objectContaining({ name: 'release-notes', origin: `folder:${path.join(REPO_ROOT, 'config/examples/agent-skills')}` }),
    );
  });

  it('run: the model sees only the name and description, loads the skill, then follows its body', async () => {
    llm = await startScriptedLlmServer([
      { toolCalls: [{ name: 'LoadSkill', arguments: { name: 'refunds' } }] },
      { toolCalls: [{ name: 'mcp__billing__issue_refund', arguments: { order: 'A-17', amount: 30 } }] },
      { text: 'Refunded.' },
    ]);
    const dir = workspace(llm.baseUrl);
    const { code, stdout } = await cli(dir, ['run', '--yes', 'refund order A-17, 30 euros']);

    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toContain('Refunded.');
    const [first, second, third] = llm.requests.map((request) => JSON.stringify(request.body));
    const loadSkill = llm.requests[0].body.tools?.find((t) => t.function.name === 'LoadSkill');
    expect(loadSkill?.function.description).toContain('- refunds [mcp:billing]: How this shop refunds an order');
    expect(loadSkill?.function.description).toContain('- notes [folder:');
    expect(first).not.toContain(SECRET_STEP);
    expect(llm.requests[1].body.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining(SECRET_STEP) });
    expect(second).toContain(SECRET_STEP);
    expect(llm.requests[2].body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'refund 30 issued for A-17' });
    expect(third).toContain(SECRET_STEP);
  });

  it('run: a tampered SKILL.md is refused with a message naming the skill, the server and the mismatch', async () => {
    llm = await startScriptedLlmServer([{ toolCalls: [{ name: 'LoadSkill', arguments: { name: 'refunds' } }] }, { text: 'Cannot.' }]);
    const dir = workspace(llm.baseUrl, ['--tamper=refunds/SKILL.md']);
    expect(await cli(dir, ['run', 'refund order A-17'])).toMatchObject({ code: ExitCode.Ok });

    const refusal = llm.requests[1].body.messages.at(-1);
    expect(refusal).toMatchObject({
      role: 'tool',
      content: expect.stringMatching(/skill "refunds" of MCP server "billing" refused: size \d+ bytes, listed \d+; digest sha256:/),
    });
    expect(JSON.stringify(llm.requests[1].body)).not.toContain('evil.example');
  });
});
