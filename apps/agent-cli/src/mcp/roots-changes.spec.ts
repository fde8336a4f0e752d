import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { McpClient } from '@toolmesh/mcp-client';

import { TransportClientFactory } from './client-factory';
import { ClientFeatures } from './host/client-features';
import { DEFAULT_SERVER_REQUEST_LIMITS } from './host/server-request-limits';
import type { StdioServerConfig } from './server-config';

/**
 * Roots that change during a session reach the server: `notifications/roots/list_changed`, after which the
 * real server-filesystem asks for the roots again and serves the new folders. A server connected without
 * roots cannot be told, and keeps its configured folder.
 */
const FILESYSTEM_BIN = path.join(__dirname, '../../../../node_modules/.bin/mcp-server-filesystem');
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-cli-roots-change-')));
const [configured, first, second] = ['configured', 'first', 'second'].map((name) => path.join(base, name));
for (const dir of [configured, first, second]) mkdirSync(dir);

async function allowedDirectories(client: McpClient): Promise<string[]> {
  const result = await client.callTool('list_allowed_directories', {});
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return text.split('\n').filter((line) => line.startsWith('/'));
}

/** server-filesystem started for `configured`, offered `roots` (none: no roots capability), with the features that offer them. */
async function withFilesystem(
  roots: readonly string[],
  use: (client: McpClient, features: ClientFeatures) => Promise<void>,
): Promise<void> {
  const features = new ClientFeatures({
    rootsFor: () => roots,
    model: { unavailable: 'no model in this test' },
    samplingGate: { decide: async () => ({ allowed: false, reason: 'not in this test' }) },
    warn: () => undefined,
    limitsFor: () => DEFAULT_SERVER_REQUEST_LIMITS,
  });
  const factory = new TransportClientFactory({ name: 'roots-test', version: '0' }, { features });
  const config: StdioServerConfig = {
    name: 'files',
    transport: 'stdio',
    command: FILESYSTEM_BIN,
    args: [configured],
    env: {},
    requestTimeoutMs: 20_000,
    annotationTrust: 'ignore',
  };
  const errors: string[] = [];
  const client = factory.create(config, (error) => errors.push(error.message));
  try {
    await client.connect();
    await use(client, features);
    expect(errors).toEqual([]);
  } finally {
    await client.close();
    await factory.close();
  }
}

describe('roots that change during a session', () => {
  it('are told to the server, which then serves the new roots and nothing else', async () => {
    await withFilesystem([first], async (client, features) => {
      expect(await servedOnceSettled(client, [first])).toEqual([first]);

      expect(features.setRoots('files', [second, configured])).toBe(true);

      expect(await servedOnceSettled(client, [second, configured])).toEqual([second, configured]);
      expect(features.rootsOf('files')).toEqual([second, configured]);
    });
  });

  it('cannot be told to a server connected without roots: it keeps its configured folder', async () => {
    await withFilesystem([], async (client, features) => {
      expect(await allowedDirectories(client)).toEqual([configured]);
      expect(features.setRoots('files', [second])).toBe(false);
      expect(await allowedDirectories(client)).toEqual([configured]);
    });
  });
});

/** What the server serves, once it is `expected` (the server asks for the roots on its own time), or at the deadline. */
async function servedOnceSettled(client: McpClient, expected: readonly string[]): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  let served = await allowedDirectories(client);
  while (JSON.stringify(served) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    served = await allowedDirectories(client);
  }
  return served;
}
