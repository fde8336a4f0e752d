import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type Everything, EVERYTHING_SCRIPT, startEverything } from '@toolmesh/test-peers/mcp-servers';

import { resultText } from '../tools/tool';
import { ToolRegistry } from '../tools/tool-registry';
import { TransportClientFactory } from './client-factory';
import { McpClientManager } from './client-manager';
import type { McpServerConfig } from './server-config';

const FIVE_MB = 'x'.repeat(5 * 1024 * 1024);
/** Far beyond the test's own timeout: a call that waited for it would fail the test, not pass it. */
const LONG_TIMEOUT_MS = 600_000;

let manager: McpClientManager | undefined;
let factory: TransportClientFactory | undefined;
let server: Everything | undefined;
let files: Server | undefined;
afterEach(async () => {
  files?.closeAllConnections();
  files?.close();
  files = undefined;
  await manager?.close();
  await factory?.close();
  await server?.stop();
  manager = undefined;
  server = undefined;
});

async function tools(config: McpServerConfig): Promise<ToolRegistry> {
  factory = new TransportClientFactory({ name: 'oversized-test', version: '0' });
  manager = new McpClientManager(factory, { warn: () => undefined });
  const [status] = await manager.connectAll([config]);
  expect(status.state).toBe('connected');
  const registry = new ToolRegistry();
  await manager.registerAllTools(registry);
  return registry;
}

describe('a reply over the transport limit (4 MiB) fails its call at once (SPEC A17)', () => {
  it('over stdio: server-everything echoing 5 MB; the server stays usable', async () => {
    const registry = await tools({
      name: 'everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING_SCRIPT, 'stdio'],
      env: {},
      requestTimeoutMs: LONG_TIMEOUT_MS,
      annotationTrust: 'ignore',
    });
    const echo = registry.get('mcp__everything__echo');

    const big = await echo?.execute({ message: FIVE_MB });
    expect(big?.isError).toBe(true);
    expect(resultText(big ?? { isError: true, content: [] })).toMatch(
      /reply of \d+ bytes is over this client's limit of 4194304 bytes; it was dropped \[stdio\.message_too_large\]/,
    );

    expect(await echo?.execute({ message: 'small' })).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Echo: small' }] });
  }, 30_000);

  it('over Streamable HTTP: a 5 MB SSE event of server-everything is read once, not resumed again and again', async () => {
    // 5 MB that gzip cannot shrink, for server-everything's gzip tool to return as one embedded resource.
    const noise = randomBytes(5 * 1024 * 1024);
    files = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(noise));
    await new Promise<void>((resolve) => files?.listen(0, '127.0.0.1', resolve));
    const noiseUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/noise.bin`;
    server = await startEverything();
    const registry = await tools({
      name: 'web',
      transport: 'streamable-http',
      url: new URL(server.url),
      headers: {},
      requestTimeoutMs: LONG_TIMEOUT_MS,
      annotationTrust: 'ignore',
    });
    const echo = registry.get('mcp__web__echo');

    const big = await registry
      .get('mcp__web__gzip-file-as-resource')
      ?.execute({ name: 'noise.gz', data: noiseUrl, outputType: 'resource' });
    expect(big?.isError).toBe(true);
    expect(resultText(big ?? { isError: true, content: [] })).toMatch(
      /reply of \d+ bytes is over this client's limit of 4194304 bytes; it was dropped \[http\.message_too_large\]/,
    );
    expect(server.output()).not.toContain('Last-Event-ID');

    expect(await echo?.execute({ message: 'small' })).toMatchObject({ isError: false, content: [{ type: 'text', text: 'Echo: small' }] });
  }, 30_000);
});
