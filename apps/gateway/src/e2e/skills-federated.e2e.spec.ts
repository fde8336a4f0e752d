import path from 'node:path';

import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { expectSkillsPassing, runSuite, SKILLS_ERAS, SUITE_02_SKILLS_SCENARIOS } from '../test-support/conformance-suite';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * A gateway's skills relayed by a gateway in front of it (issue 49): the back serves a folder's skill and the
 * sample service's; the front's bundles are the back as an MCP server, once keeping its URIs and once with a
 * `namePrefix` (URIs `skill://<bundle>/...`). The suite's three Skills scenarios through the front, its
 * named checks passed (front matter identical, digests and sizes those of the bytes read through it).
 */
describe('skills through a gateway in front of a gateway', () => {
  let tools: SampleToolService;
  let back: TestGateway;
  let front: TestGateway;

  beforeAll(async () => {
    tools = await startSampleToolService();
    back = await startTestGateway(tools.url, (config) => {
      config.mcp.skills.folders = [{ path: path.join(REPO_ROOT, 'config/examples/skills') }];
      config.mcp.skills.bundles = ['sample'];
    });
    front = await startTestGateway(tools.url, (config) => {
      config.mcp.bundles = [
        { name: 'back', mcpServer: { url: back.url } },
        { name: 'prefixed', mcpServer: { url: back.url }, namePrefix: 'p_' },
      ];
    });
  });
  afterAll(async () => {
    await front?.stop();
    await back?.stop();
    await tools?.stop();
  });

  it("lists the back's skills as it lists them, then the namespaced bundle's under skill://prefixed/, entries otherwise untouched", async () => {
    const [backSkills, frontSkills] = await Promise.all(
      [back, front].map(async (gateway) => (await gateway.rpc('skills/list', {})).result?.skills as Array<{ uri: string }>),
    );
    expect(frontSkills.slice(0, backSkills.length)).toEqual(backSkills);
    expect(frontSkills.slice(backSkills.length)).toEqual(
      backSkills.map((skill) => JSON.parse(JSON.stringify(skill).replaceAll('"skill://', '"skill://prefixed/'))),
    );
    const read = await front.rpc('resources/read', { uri: 'skill://prefixed/customer-escalation/references/matrix.md' });
    expect(read.result?.contents).toMatchObject([
      { uri: 'skill://prefixed/customer-escalation/references/matrix.md', text: expect.stringContaining('Escalation matrix') },
    ]);
  });

  for (const [era, options] of SKILLS_ERAS) {
    it(`passes the suite's Skills scenarios through the front at ${era}`, async () => {
      // One server behind two bundles lists each name twice: the SHOULD of unique names is knowingly not met here.
      expectSkillsPassing(await runSuite(front.url, SUITE_02_SKILLS_SCENARIOS, [...options]), {
        'sep-2640-skills-enumeration': ['sep-2640-names-should-be-unique'],
      });
    }, 120_000);
  }
});
