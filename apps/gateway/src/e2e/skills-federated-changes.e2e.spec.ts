import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { openListen, openStream } from '../test-support/notification-streams';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * A change of an MCP server's skills reaches the front gateway's listeners (issue 49): the back, a gateway
 * serving a skills folder, is the front's MCP server twice, spoken to at 2025 (its GET stream) and at
 * 2026-07-28 (its `subscriptions/listen`). A skill added to the folder is told by the back as
 * `notifications/resources/list_changed`; the front lists that server again and tells its own 2025 GET
 * stream and 2026 listen the same, and its `skills/list` shows the skill under both bundles. The front's
 * TTL is an hour: only the back's notifications can explain the change in time.
 */
const HOUR = 3_600_000;
const isResourcesChanged = (message: Record<string, unknown>) => message.method === 'notifications/resources/list_changed';

function writeSkill(root: string, name: string): void {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody.\n`);
}

describe("skills: an MCP server's changed skills are announced by the gateway in front", () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'skills-federated-changes-'));
  let tools: SampleToolService;
  let back: TestGateway;
  let front: TestGateway;

  const frontSkills = async () => ((await front.rpc('skills/list', {})).result?.skills as Array<{ uri: string }>).map((skill) => skill.uri);

  beforeAll(async () => {
    writeSkill(folder, 'first-skill');
    tools = await startSampleToolService();
    back = await startTestGateway(tools.url, (config) => {
      config.mcp.catalogue.refreshTtlMillis = 200;
      config.mcp.skills.folders = [{ path: folder }];
    });
    front = await startTestGateway(tools.url, (config) => {
      config.mcp.catalogue.refreshTtlMillis = HOUR;
      config.mcp.bundles = [
        { name: 'legacy', namePrefix: 'l_', mcpServer: { url: back.url, era: '2025' } },
        { name: 'modern', namePrefix: 'm_', mcpServer: { url: back.url, era: '2026-07-28' } },
      ];
    });
  });
  afterAll(async () => {
    await front?.stop();
    await back?.stop();
    await tools?.stop();
  });

  it('declares resources.listChanged, and tells a 2025 stream and a 2026 listen when the server adds a skill', async () => {
    const initialized = await front.rpc('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    expect(initialized.result?.capabilities).toMatchObject({ resources: { listChanged: true } });
    expect(await frontSkills()).toEqual(['skill://legacy/first-skill/SKILL.md', 'skill://modern/first-skill/SKILL.md']);
    const legacy = await openStream(front.url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
    const modern = await openListen(front.url, 'listen-1', { resourcesListChanged: true });
    try {
      const acknowledged = await modern.next((message) => message.method === 'notifications/subscriptions/acknowledged');
      expect(acknowledged.params).toMatchObject({ notifications: { resourcesListChanged: true } });
      writeSkill(folder, 'second-skill');
      await Promise.all([legacy.next(isResourcesChanged), modern.next(isResourcesChanged)]);
      // Each bundle's connection hears the back on its own: polled until both are listed again.
      for (;;) {
        const uris = await frontSkills();
        if (uris.length === 4) {
          expect(uris).toEqual([
            'skill://legacy/first-skill/SKILL.md',
            'skill://legacy/second-skill/SKILL.md',
            'skill://modern/first-skill/SKILL.md',
            'skill://modern/second-skill/SKILL.md',
          ]);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      legacy.close();
      modern.close();
    }
  }, 30_000);
});
