import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnGateway } from '../../../tools/test/gateway-process';
import { CONFORMANCE_FEATURES_SCRIPT, type HttpPeer, startHttpPeer } from '../../../tools/test/peers/http-peer';
import type { ServerProcess } from '../../../tools/test/server-process';
import { expectPassing, runSuite } from './test-support/conformance-suite';

/**
 * The resources-* and prompts-* scenarios of both suites (issue 28), which ask the suite's reference
 * server for its own URIs and prompt names: here the built gateway answers them from an MCP server bundle
 * without a prefix (tools/test/peers/conformance-features-server.mjs serves exactly those), so each read
 * and get crosses the gateway to the server and back. Not run: resources-subscribe and -unsubscribe (the
 * gateway does not offer subscriptions).
 */
const SCENARIOS = [
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
];
/** At 2026-07-28 also the revision's error for a resource nobody has (SEP-2164: -32602, never -32002). */
const MODERN_SCENARIOS = [...SCENARIOS, 'sep-2164-resource-not-found'];

describe('official MCP conformance suites, resources and prompts scenarios, through a federating gateway', () => {
  let peer: HttpPeer;
  let front: ServerProcess & { match: RegExpExecArray };
  const url = () => front.match[1];

  beforeAll(async () => {
    peer = await startHttpPeer([], CONFORMANCE_FEATURES_SCRIPT);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'conformance-federated-')), 'gateway.yaml');
    writeFileSync(
      file,
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: conformance, mcpServer: { url: "\${CONFORMANCE_SERVER_URL}" } }
`,
    );
    front = await spawnGateway(file, { CONFORMANCE_SERVER_URL: peer.url });
  }, 120_000);

  afterAll(async () => {
    await front?.stop();
    await peer?.stop();
  });

  it(`0.1.16 passes ${SCENARIOS.join(', ')}`, async () => {
    expectPassing(await runSuite(url(), SCENARIOS), SCENARIOS);
  }, 180_000);

  it('0.2.0-alpha.12 (default mode) passes the same scenarios', async () => {
    expectPassing(await runSuite(url(), SCENARIOS, ['--suite', '0.2']), SCENARIOS);
  }, 180_000);

  it('0.2.0-alpha.12 with --spec-version 2026-07-28 passes them and sep-2164-resource-not-found', async () => {
    expectPassing(await runSuite(url(), MODERN_SCENARIOS, ['--suite', '0.2', '--spec-version', '2026-07-28']), MODERN_SCENARIOS);
  }, 180_000);
});
