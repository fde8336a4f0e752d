import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { openStream } from '../test-support/notification-streams';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * A change of the gateway's own skills reaches its listeners (issue 49): a skill folder gains a skill, and an
 * open 2025 GET stream and a 2026-07-28 listen asking for `resourcesListChanged` each get
 * `notifications/resources/list_changed` (SEP-2640 has no skills notification of its own), found by the
 * gateway itself within its TTL while it holds listeners and no request comes.
 */
const isResourcesChanged = (message: Record<string, unknown>) => message.method === 'notifications/resources/list_changed';

function writeSkill(root: string, name: string): void {
  mkdirSync(path.join(root, name), { recursive: true });
  writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody.\n`);
}

describe('skills: a changed folder is announced as a resources list change', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'skills-changes-'));
  let tools: SampleToolService;
  let gateway: TestGateway;

  beforeAll(async () => {
    writeSkill(folder, 'first-skill');
    tools = await startSampleToolService();
    gateway = await startTestGateway(tools.url, (config) => {
      config.mcp.catalogue.refreshTtlMillis = 200;
      config.mcp.skills.folders = [{ path: folder }];
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  it('declares resources.listChanged, and tells a 2025 stream and a 2026 listen when a skill is added', async () => {
    const initialized = await gateway.rpc('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    expect(initialized.result?.capabilities).toMatchObject({ resources: { listChanged: true } });
    const legacy = await openStream(gateway.url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
    const modern = await openStream(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'listen-1',
        method: 'subscriptions/listen',
        params: {
          notifications: { resourcesListChanged: true },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    });
    try {
      const acknowledged = await modern.next((message) => message.method === 'notifications/subscriptions/acknowledged');
      expect(acknowledged.params).toMatchObject({ notifications: { resourcesListChanged: true } });
      writeSkill(folder, 'second-skill');
      await Promise.all([legacy.next(isResourcesChanged), modern.next(isResourcesChanged)]);
      const listed = (await gateway.rpc('skills/list', {})).result?.skills as Array<{ uri: string }>;
      expect(listed.map((skill) => skill.uri)).toEqual(['skill://first-skill/SKILL.md', 'skill://second-skill/SKILL.md']);
    } finally {
      legacy.close();
      modern.close();
    }
  }, 30_000);
});
