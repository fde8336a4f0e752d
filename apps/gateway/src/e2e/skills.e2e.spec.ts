import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT, type ServerProcess } from '@toolmesh/test-peers/server-process';

import { expectSkillsPassing, runSuite, SKILLS_ERAS, SUITE_02_SKILLS_SCENARIOS } from '../test-support/conformance-suite';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

const EXAMPLE = path.join(REPO_ROOT, 'config/examples/skills.yaml');
const FOLDER = path.join(REPO_ROOT, 'config/examples/skills');

const sha256 = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** One JSON-RPC request at 2025-11-25, without initialize (the gateway's 2025 era is stateless). */
async function rpc(url: string, method: string, params: object): Promise<{ result?: Record<string, unknown>; error?: { code: number } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown> };
}

/**
 * Skills over MCP served by the gateway (SEP-2640, issue 49): config/examples/skills.yaml run as it is
 * documented, the built gateway over the sample tool service as processes, with a skill from the operator's
 * folder (listed first) and one the service ships beside its manifest; then the service's alone. The
 * suite's three Skills scenarios at 2026-07-28 and at 2025-11-25, their named checks passed, not skipped.
 */
describe('skills: config/examples/skills.yaml, a folder and a tool service', () => {
  let tools: SampleToolService;
  let gateway: ServerProcess & { match: RegExpExecArray };
  let url: string;

  beforeAll(async () => {
    tools = await startSampleToolService();
    const config = readFileSync(EXAMPLE, 'utf8').replace(/^mcp:/m, 'server: { port: 0, managementPort: 0 }\nmcp:');
    gateway = await spawnGateway(writeGatewayConfig(config), { TOOL_SERVICE_URL: tools.url, SKILLS_FOLDER: FOLDER });
    url = gateway.match[1];
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  it('lists both skills, each file with the digest and size of its bytes, and reads them byte for byte', async () => {
    const listed = (await rpc(url, 'skills/list', {})).result?.skills as Array<{ uri: string; resources: object[] }>;
    const folderSkill = readFileSync(path.join(FOLDER, 'customer-escalation/SKILL.md'));
    const matrix = readFileSync(path.join(FOLDER, 'customer-escalation/references/matrix.md'));
    const serviceSkill = Buffer.from(await (await fetch(`${tools.url}/skills/order-refunds/SKILL.md`)).arrayBuffer());
    expect(listed.map((skill) => skill.uri)).toEqual(['skill://customer-escalation/SKILL.md', 'skill://sample/order-refunds/SKILL.md']);
    expect(listed[0].resources).toEqual([
      { uri: 'skill://customer-escalation/SKILL.md', digest: sha256(folderSkill), size: folderSkill.length },
      { uri: 'skill://customer-escalation/references/matrix.md', digest: sha256(matrix), size: matrix.length },
    ]);
    expect(listed[1].resources[0]).toEqual({
      uri: 'skill://sample/order-refunds/SKILL.md',
      digest: sha256(serviceSkill),
      size: serviceSkill.length,
    });
    const read = await rpc(url, 'resources/read', { uri: 'skill://sample/order-refunds/SKILL.md' });
    expect(read.result?.contents).toEqual([
      { uri: 'skill://sample/order-refunds/SKILL.md', mimeType: 'text/markdown', text: serviceSkill.toString('utf8') },
    ]);
    expect((await rpc(url, 'skills/get', { uri: 'skill://sample/nothing-here/SKILL.md' })).error?.code).toBe(-32602);
  });

  for (const [era, options] of SKILLS_ERAS) {
    it(`passes the suite's Skills scenarios at ${era}`, async () => {
      expectSkillsPassing(await runSuite(url, SUITE_02_SKILLS_SCENARIOS, [...options]));
    }, 120_000);
  }
});

describe("skills: a tool service's alone (no MCP server bundle, no folder)", () => {
  let tools: SampleToolService;
  let gateway: TestGateway;

  beforeAll(async () => {
    tools = await startSampleToolService();
    gateway = await startTestGateway(tools.url, (config) => {
      config.mcp.skills.bundles = ['sample'];
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  for (const [era, options] of SKILLS_ERAS) {
    it(`passes the suite's Skills scenarios at ${era}`, async () => {
      expectSkillsPassing(await runSuite(gateway.url, SUITE_02_SKILLS_SCENARIOS, [...options]));
    }, 120_000);
  }
});
