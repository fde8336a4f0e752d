import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { Client, type FetchLike, StreamableHTTPClientTransport, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { useGatewayWithSampleService } from '../test-support/test-gateway';

/**
 * Inspector CLI 1.0.3 finds its own package.json relative to the working directory, so it runs from its
 * build folder. (`@modelcontextprotocol/inspector --cli` runs this same package; see ADR 0003.)
 */
const INSPECTOR_BUILD = path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/build/cli.js'));

const MODERN_VERSION = '2026-07-28';

async function inspector(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(INSPECTOR_BUILD, 'cli.js'), '--cli', ...args], {
    cwd: INSPECTOR_BUILD,
  });
  return JSON.parse(stdout);
}

/** Every request the client sends, as the headers it put on the wire, recorded on the way to the real fetch. */
function recordingFetch(sent: Headers[]): FetchLike {
  return (url, init) => {
    sent.push(new Headers(init?.headers));
    return fetch(url, init);
  };
}

/**
 * An SDK v2 client connected to the gateway. `guid` goes on every request as the caller header, so the
 * gateway's log lines for this client's requests can be told apart from every other test's.
 */
async function connectedClient(
  url: string,
  options: { mode?: VersionNegotiationMode; guid?: string; fetch?: FetchLike } = {},
): Promise<Client> {
  const client = new Client({ name: 'sdk-client-test', version: '1.0.0' }, options.mode && { versionNegotiation: { mode: options.mode } });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.guid && { requestInit: { headers: { guid: options.guid } } }),
    ...(options.fetch && { fetch: options.fetch }),
  });
  await client.connect(transport);
  return client;
}

/** The JSON-RPC methods the gateway received from one caller, in order, read from its request log lines. */
function methodsReceived(logs: string, guid: string): string[] {
  return logs
    .split('\n')
    .filter((line) => line.includes('event=mcp_http_request_received') && line.includes(`guid=${guid} `))
    .map((line) => /\bmethod=(\S+)/.exec(line)?.[1] ?? '(none)');
}

describe('real MCP clients through the gateway', () => {
  const { gateway } = useGatewayWithSampleService();

  describe('the 2025 era (initialize)', () => {
    it('the MCP Inspector CLI lists and calls a tool', async () => {
      const listed = (await inspector(gateway().url, '--transport', 'http', '--method', 'tools/list')) as {
        tools: Array<{ name: string }>;
      };
      expect(listed.tools.map((t) => t.name)).toContain('product_search');
      const called = (await inspector(
        gateway().url,
        '--transport',
        'http',
        '--method',
        'tools/call',
        '--tool-name',
        'echo_text',
        '--tool-arg',
        'text=inspected',
      )) as {
        content: Array<{ text: string }>;
        isError: boolean;
      };
      expect([called.isError, called.content[0].text]).toEqual([false, 'inspected']);
    });

    it("the SDK's Streamable HTTP client (default 'legacy' negotiation) lists and calls a tool", async () => {
      const guid = 'legacy-client';
      const client = await connectedClient(gateway().url, { guid });
      try {
        expect(client.getProtocolEra()).toBe('legacy');
        // The handshake shows in the log, which is what the 'auto' test below relies on to see its absence.
        expect(methodsReceived(gateway().logs(), guid)).toEqual(['initialize', 'notifications/initialized']);
        expect(client.getServerVersion()?.name).toBe('toolmesh-gateway');
        const { tools: listed } = await client.listTools();
        expect(listed.find((t) => t.name === 'order_search')?.inputSchema).toMatchObject({ type: 'object' });
        const result = await client.callTool({ name: 'product_search', arguments: { query: 'paper' } });
        expect(result.isError).toBe(false);
        expect(Array.isArray(JSON.parse((result.content as Array<{ text: string }>)[0].text))).toBe(true);
        const failing = await client.callTool({ name: 'always_fails', arguments: {} });
        expect(failing.isError).toBe(true);
      } finally {
        await client.close();
      }
    });
  });

  describe('the 2025 era, SDK v1 (1.32.2, what most deployed clients run)', () => {
    it('lists and calls a tool, told that the tool list announces its changes', async () => {
      const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransportV1(new URL(gateway().url)));
      try {
        expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
        const { tools: listed } = await client.listTools();
        expect(listed.map((t) => t.name)).toContain('echo_text');
        const result = await client.callTool({ name: 'echo_text', arguments: { text: 'v1 hello' } });
        expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'v1 hello' }] });
      } finally {
        await client.close();
      }
    });
  });

  describe('the 2026-07-28 era (SPEC G25)', () => {
    it(`the SDK v2 client pinned to ${MODERN_VERSION} lists and calls tools, sending Mcp-Param-* for x-mcp-header arguments`, async () => {
      const sent: Headers[] = [];
      const client = await connectedClient(gateway().url, { mode: { pin: MODERN_VERSION }, fetch: recordingFetch(sent) });
      try {
        expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(['modern', MODERN_VERSION]);
        expect(client.getServerVersion()?.name).toBe('toolmesh-gateway');
        const { tools: listed } = await client.listTools();
        expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(['echo_text', 'test_custom_headers']));

        const echoed = await client.callTool({ name: 'echo_text', arguments: { text: 'modern hello' } });
        expect([echoed.isError, (echoed.content as Array<{ text: string }>)[0].text]).toEqual([false, 'modern hello']);

        sent.length = 0;
        const custom = await client.callTool({ name: 'test_custom_headers', arguments: { region: 'eu-west1', priority: 3, query: 'q' } });
        expect([custom.isError, (custom.content as Array<{ text: string }>)[0].text]).toEqual([false, 'q in eu-west1 at priority 3']);
        // One request, not a -32020 refusal followed by the SDK's refetch-and-retry.
        expect(
          sent.map((headers) => [
            headers.get('mcp-method'),
            headers.get('mcp-name'),
            headers.get('mcp-param-region'),
            headers.get('mcp-param-priority'),
          ]),
        ).toEqual([['tools/call', 'test_custom_headers', 'eu-west1', '3']]);
      } finally {
        await client.close();
      }
    });

    it(`the SDK v2 client in 'auto' mode picks ${MODERN_VERSION} at its first request, with no initialize fallback`, async () => {
      const guid = 'auto-negotiating-client';
      const client = await connectedClient(gateway().url, { mode: 'auto', guid });
      try {
        expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(['modern', MODERN_VERSION]);
        const echoed = await client.callTool({ name: 'echo_text', arguments: { text: 'auto' } });
        expect(echoed.isError).toBe(false);
      } finally {
        await client.close();
      }
      // What reached the gateway from this client: the probe answered at once, then the call; no
      // initialize, no notifications/initialized, no repeated discover.
      expect(methodsReceived(gateway().logs(), guid)).toEqual(['server/discover', 'tools/call']);
    });
  });
});
