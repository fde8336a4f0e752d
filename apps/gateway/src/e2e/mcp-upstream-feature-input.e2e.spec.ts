import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { MODERN_VERSION as VERSION, modernRequest } from '../test-support/modern-request';

/**
 * An MCP server's request for input on a `prompts/get` or a `resources/read`, relayed across the hop as a
 * call's is (issue 44): the built gateway in front of two SDK servers on loopback serving a prompt and a
 * resource that ask for the user's name first (tools/test/peers/sdk-http-server.mjs --asking), one at 2025
 * (the SDK's legacy shim asks on the request's own stream) and one at 2026-07-28 (`input_required`).
 * Callers: the SDK v2 client at 2026-07-28 and the v1 client at 2025, each answering the elicitation; raw
 * HTTP for a state brought to another request.
 */

async function modernClient(url: string): Promise<Client> {
  const client = new Client(
    { name: 'feature-input-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: VERSION } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: { name: 'Ada' } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function legacyClient(url: string): Promise<V1Client> {
  const client = new V1Client({ name: 'feature-input-test-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
  await client.connect(new V1Transport(new URL(url)));
  return client;
}

/** One raw 2026-07-28 request, for what no SDK client sends (a state brought to another request). */
async function rawModern(url: string, method: string, params: Record<string, unknown>) {
  const response = await modernRequest(url, method, params, {
    capabilities: { elicitation: {} },
    meta: { 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } },
  });
  return {
    status: response.status,
    body: (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } },
  };
}

const textOf = (result: { messages?: unknown; contents?: unknown }) =>
  JSON.stringify(result.messages ?? result.contents).match(/(Greet|Hello), \w+|Greet \w+ \(\w+\)/)?.[0];

describe('a prompt and a resource whose MCP server asks for input, through the gateway (issue 44)', () => {
  let legacyServer: HttpPeer;
  let modernServer: HttpPeer;
  let front: ServerProcess & { match: RegExpExecArray };
  const url = () => front.match[1];

  beforeAll(async () => {
    [legacyServer, modernServer] = await Promise.all([startHttpPeer(['--asking']), startHttpPeer(['--asking', '--modern'])]);
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: legacy, namePrefix: old_, mcpServer: { url: "\${LEGACY_URL}", era: "2025" } }
    - { name: modern, namePrefix: new_, mcpServer: { url: "\${MODERN_URL}", era: "2026-07-28" } }
`,
    );
    front = await spawnGateway(file, { LEGACY_URL: legacyServer.url, MODERN_URL: modernServer.url });
  }, 120_000);

  afterAll(async () => {
    await front?.stop();
    await Promise.all([legacyServer?.stop(), modernServer?.stop()]);
  });

  it.each([
    ['a 2025 server (its request on the stream, the get held for the retry)', 'old_greet', 'legacy+test://greeting'],
    ['a 2026-07-28 server (its input_required, relayed)', 'new_greet', 'modern+test://greeting'],
  ])(
    'a 2026-07-28 caller gets input_required from %s, answers it, and its retry completes',
    async (_server, prompt, uri) => {
      const client = await modernClient(url());
      try {
        const got = await client.getPrompt({ name: prompt, arguments: { style: 'warm' } });
        expect(textOf(got)).toBe('Greet Ada (warm)');
        const read = await client.readResource({ uri });
        expect(read.contents).toEqual([{ uri, mimeType: 'text/plain', text: 'Hello, Ada' }]);
      } finally {
        await client.close();
      }
    },
    60_000,
  );

  it("a 2025 caller is asked on its request's event stream by a 2025 server, for a get and a read, and both complete", async () => {
    const client = await legacyClient(url());
    try {
      const got = await client.getPrompt({ name: 'old_greet', arguments: { style: 'brief' } });
      expect(textOf(got as never)).toBe('Greet Grace (brief)');
      const read = await client.readResource({ uri: 'legacy+test://greeting' });
      expect(read.contents).toEqual([{ uri: 'legacy+test://greeting', mimeType: 'text/plain', text: 'Hello, Grace' }]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a 2025 caller, which makes no retry, is asked a 2026-07-28 server's round on its stream, and the gateway retries for it", async () => {
    // The server is told what the caller's session declared (elicitation), so it asks; the gateway puts the
    // request to the caller and sends the get and the read again with its answer.
    const client = await legacyClient(url());
    try {
      const got = await client.getPrompt({ name: 'new_greet', arguments: { style: 'brief' } });
      expect(textOf(got as never)).toBe('Greet Grace (brief)');
      const read = await client.readResource({ uri: 'modern+test://greeting' });
      expect(read.contents).toEqual([{ uri: 'modern+test://greeting', mimeType: 'text/plain', text: 'Hello, Grace' }]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a 2025 caller that declared no elicitation is not asked: the 2026-07-28 server's refusal comes back as it said it", async () => {
    const client = new V1Client({ name: 'feature-input-test-v1', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new V1Transport(new URL(url())));
    try {
      await expect(client.getPrompt({ name: 'new_greet', arguments: { style: 'brief' } })).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining("the request's client capabilities do not declare the required capability"),
      });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a state sealed for one prompt opens for no other request: not a read, not the same prompt with other arguments', async () => {
    const first = await rawModern(url(), 'prompts/get', { name: 'old_greet', arguments: { style: 'warm' } });
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ resultType: 'input_required', inputRequests: expect.any(Object) });
    const { requestState, inputRequests } = first.body.result as { requestState: string; inputRequests: Record<string, unknown> };
    const inputResponses = Object.fromEntries(
      Object.keys(inputRequests).map((key) => [key, { action: 'accept', content: { name: 'Eve' } }]),
    );
    const elsewhere = await rawModern(url(), 'resources/read', { uri: 'legacy+test://greeting', inputResponses, requestState });
    expect(elsewhere.body.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('was not issued by this gateway for this request'),
    });
    const otherArguments = await rawModern(url(), 'prompts/get', {
      name: 'old_greet',
      arguments: { style: 'cold' },
      inputResponses,
      requestState,
    });
    expect(otherArguments.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('was issued for other arguments') });
    const retry = await rawModern(url(), 'prompts/get', { name: 'old_greet', arguments: { style: 'warm' }, inputResponses, requestState });
    expect(retry.body.result).toMatchObject({ resultType: 'complete', messages: [{ content: { text: 'Greet Eve (warm)' } }] });
  }, 60_000);
});
