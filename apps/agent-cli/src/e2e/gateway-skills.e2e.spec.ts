import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT, type ServerProcess } from '@toolmesh/test-peers/server-process';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { ExitCode } from '../cli/exit-codes';
import { runBuiltCli } from '../test-support/built-cli';

/**
 * The built agent CLI using the skills the built gateway serves (issue 49): the gateway runs
 * config/examples/skills.yaml over the sample tool service, and the agent runs config/examples/agent-skills.yaml
 * with the gateway's address in it. `skills --json` lists the gateway's skills and the example's local one;
 * a scripted model that sees only names and descriptions loads the service's skill, reads the file it
 * points to, and calls the tool it names.
 */
const SKILL_STEP = 'Look the order up with `order_search`';

describe('agent-cli with the skills of a gateway (SEP-2640)', () => {
  let tools: SampleToolService;
  let gateway: ServerProcess & { match: RegExpExecArray };
  let llm: ScriptedLlmServer | undefined;

  beforeAll(async () => {
    tools = await startSampleToolService();
    const gatewayYaml = readFileSync(path.join(REPO_ROOT, 'config/examples/skills.yaml'), 'utf8');
    gateway = await spawnGateway(writeGatewayConfig(gatewayYaml.replace(/^mcp:/m, 'server: { port: 0, managementPort: 0 }\nmcp:')), {
      TOOL_SERVICE_URL: tools.url,
      SKILLS_FOLDER: path.join(REPO_ROOT, 'config/examples/skills'),
    });
  });
  afterEach(async () => {
    await llm?.close();
    llm = undefined;
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  /** config/examples/agent-skills.yaml with the gateway's address, its folder absolute, and the scripted model. */
  function agentConfig(model?: ScriptedLlmServer): string {
    const example = readFileSync(path.join(REPO_ROOT, 'config/examples/agent-skills.yaml'), 'utf8')
      .replace('http://127.0.0.1:8080/mcp', gateway.match[1])
      .replace('folders: [agent-skills]', `folders: [${JSON.stringify(path.join(REPO_ROOT, 'config/examples/agent-skills'))}]`);
    const llmYaml = model ? `llm: { baseUrl: ${model.baseUrl}, model: scripted-model }\n` : '';
    const config = path.join(mkdtempSync(path.join(tmpdir(), 'agent-gateway-skills-')), 'agent-cli.yaml');
    writeFileSync(config, `${llmYaml}${example}`);
    return config;
  }
  const cli = (file: string, ...args: string[]) =>
    runBuiltCli([...args, '--config', file], { cwd: REPO_ROOT, env: { PATH: process.env.PATH } });

  it("skills --json lists the gateway's skills (its folder's and the tool service's) and the local one", async () => {
    const run = await cli(agentConfig(), 'skills', '--json');
    expect(run.code).toBe(ExitCode.Ok);
    expect(JSON.parse(run.stdout).skills.map((s: { name: string; origin: string; uri: string }) => [s.name, s.origin, s.uri])).toEqual([
      ['customer-escalation', 'mcp:gateway', 'skill://customer-escalation/SKILL.md'],
      ['order-refunds', 'mcp:gateway', 'skill://sample/order-refunds/SKILL.md'],
      ['release-notes', `folder:${path.join(REPO_ROOT, 'config/examples/agent-skills')}`, expect.stringMatching(/^file:/)],
    ]);
  });

  it('run: the model loads the skill it needs, reads its file, and calls the tool the skill names', async () => {
    llm = await startScriptedLlmServer([
      { toolCalls: [{ name: 'LoadSkill', arguments: { name: 'order-refunds' } }] },
      { toolCalls: [{ name: 'ReadSkillFile', arguments: { name: 'order-refunds', path: 'references/limits.md' } }] },
      { toolCalls: [{ name: 'mcp__gateway__order_search', arguments: { customerId: 'C1001' } }] },
      { text: 'A full refund.' },
    ]);
    const run = await cli(agentConfig(llm), 'run', '--yes', 'may order 1 of C1001 be refunded?');

    expect(run.code).toBe(ExitCode.Ok);
    expect(run.stdout).toContain('A full refund.');
    expect(llm.requests[0].body.tools?.find((t) => t.function.name === 'LoadSkill')?.function.description).toContain(
      '- order-refunds [mcp:gateway]: Decide whether an order of the sample shop may be refunded',
    );
    expect(JSON.stringify(llm.requests[0].body)).not.toContain(SKILL_STEP);
    expect(llm.requests[1].body.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining(SKILL_STEP) });
    expect(llm.requests[2].body.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('Within 30 days') });
    expect(llm.requests[3].body.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('C1001') });
  });
});
