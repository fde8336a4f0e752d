import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type Everything, startEverything } from '@toolmesh/test-peers/mcp-servers';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * Server-to-client requests across the hop (issue 28), the built gateway in front of real servers on
 * loopback: our own gateway with the sample tool service as a 2026-07-28 server whose tools answer
 * `input_required` (MRTR), and server-everything from npm (2025), whose tools send elicitation and sampling
 * requests during the call. Two replicas of the front gateway share the key that seals states. Clients:
 * the SDK v2 client at 2026-07-28 with request handlers, the v1 SDK client at 2025, and raw HTTP for what
 * no SDK would send (a forged state, a retry to the other replica).
 */
const VERSION = '2026-07-28';
const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': VERSION,
};

const textOf = (result: CallToolResult) => (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

/**
 * The SDK v2 client at 2026-07-28, answering each elicitation with the one field it asks for (`name`, or
 * a colour; server-everything's form needs only the name), each sampling request with a line of verse, and
 * roots/list with one root.
 */
async function modernClient(url: string, name: string): Promise<Client> {
  const client = new Client(
    { name: 'relay-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: VERSION } } },
  );
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text: 'an old silent pond' },
    model: 'test-model',
  }));
  client.setRequestHandler('elicitation/create', async (request) => {
    const asked = Object.keys((request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
    const content: Record<string, string> = asked.includes('color') ? { color: 'green' } : { name };
    return { action: 'accept' as const, content };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/**
 * The v1 SDK client at 2025, declaring elicitation and sampling (without them it is not shown the tools that
 * ask for them, issue 44), with handlers for them (a name, a haiku) when `answering`, none otherwise.
 */
async function legacyClient(url: string, answering: boolean): Promise<V1Client> {
  const client = new V1Client({ name: 'relay-test-v1', version: '1.0.0' }, { capabilities: { elicitation: {}, sampling: {} } });
  if (answering) {
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'a frog jumps in' },
      model: 'test-model',
    }));
  }
  await client.connect(new V1Transport(new URL(url)));
  return client;
}

/** One raw 2026-07-28 `tools/call`, for what no SDK client sends. */
async function rawModernCall(url: string, params: Record<string, unknown>, capabilities: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...MODERN_HEADERS, 'mcp-method': 'tools/call', 'mcp-name': String(params.name) },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } },
  };
}

describe('server-to-client requests across the hop (issue 28)', () => {
  let sampleService: SampleToolService;
  let upstreamGateway: TestGateway;
  let everything: Everything;
  let front: ServerProcess & { match: RegExpExecArray };
  let otherReplica: ServerProcess & { match: RegExpExecArray };
  /** A replica that holds at most two calls of a bundle for a retry. */
  let bounded: ServerProcess & { match: RegExpExecArray };
  const frontUrl = () => front.match[1];

  beforeAll(async () => {
    [sampleService, everything] = await Promise.all([startSampleToolService(), startEverything()]);
    upstreamGateway = await startTestGateway(sampleService.url);
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  requestStateKey: "\${STATE_KEY}"
  catalogue: { manifestTimeoutMillis: 8000 }
  bundles:
    - { name: gateway, namePrefix: gw_, mcpServer: { url: "\${GATEWAY_URL}", era: "2026-07-28" } }
    - { name: everything, namePrefix: ev_, mcpServer: { url: "\${EVERYTHING_URL}" } }
`,
    );
    const env = { GATEWAY_URL: upstreamGateway.url, EVERYTHING_URL: everything.url, STATE_KEY: 'a-key-both-replicas-share-0123456789' };
    const boundedFile = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  heldCalls: { max: 4, maxPerBundle: 2 }
  catalogue: { manifestTimeoutMillis: 8000 }
  bundles:
    - { name: everything, namePrefix: ev_, mcpServer: { url: "\${EVERYTHING_URL}" } }
`,
    );
    [front, otherReplica, bounded] = await Promise.all([spawnGateway(file, env), spawnGateway(file, env), spawnGateway(boundedFile, env)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([front?.stop(), otherReplica?.stop(), bounded?.stop()]);
    await Promise.all([upstreamGateway?.stop(), everything?.stop()]);
    await sampleService?.stop();
  });

  describe('a 2026-07-28 server that answers input_required', () => {
    it("relays its elicitation and roots requests to a 2026-07-28 client and the client's answers back, over every round", async () => {
      const client = await modernClient(frontUrl(), 'Ada');
      try {
        const once = (await client.callTool({ name: 'gw_test_input_required_result_elicitation', arguments: {} })) as CallToolResult;
        expect(textOf(once)).toBe('Hello, Ada!');
        // Two rounds, the server's state carried from the first to the third through both gateways' seals.
        const twice = (await client.callTool({ name: 'gw_test_input_required_result_multi_round', arguments: {} })) as CallToolResult;
        expect(textOf(twice)).toBe('Ada likes green');
        const roots = (await client.callTool({ name: 'gw_test_input_required_result_list_roots', arguments: {} })) as CallToolResult;
        expect(textOf(roots)).toBe('Roots: file:///work');
      } finally {
        await client.close();
      }
    });

    it("seals the server's requestState, and refuses one the client forged or altered with -32602", async () => {
      const name = 'gw_test_input_required_result_tampered_state';
      const first = await rawModernCall(frontUrl(), { name, arguments: {} }, { elicitation: {} });
      expect(first.body.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create' } },
      });
      const sealed = first.body.result?.requestState as string;
      expect(sealed).toMatch(/^v2\./);
      const inputResponses = { confirm: { action: 'accept', content: { ok: true } } };
      for (const requestState of ['confirmation-asked', `${sealed.slice(0, -2)}AA`]) {
        const forged = await rawModernCall(frontUrl(), { name, arguments: {}, inputResponses, requestState }, { elicitation: {} });
        expect({ requestState, code: forged.body.error?.code }).toEqual({ requestState, code: -32602 });
      }
      const honest = await rawModernCall(frontUrl(), { name, arguments: {}, inputResponses, requestState: sealed }, { elicitation: {} });
      expect(honest.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'state intact' }] });
    });

    it('tells the server only what the client declared: nothing is asked of a client that declared nothing', async () => {
      const nothing = await rawModernCall(frontUrl(), { name: 'gw_test_input_required_result_capabilities', arguments: {} }, {});
      expect(nothing.body.result).toMatchObject({ content: [{ text: 'nothing asked: the client declared no input capabilities' }] });
      const some = await rawModernCall(
        frontUrl(),
        { name: 'gw_test_input_required_result_capabilities', arguments: {} },
        { elicitation: {} },
      );
      expect(Object.keys(some.body.result?.inputRequests as object)).toEqual(['user_name']);
      // A server that needs more answers -32021 about the capabilities it was told, the client's own: passed on as such.
      const missing = await rawModernCall(
        frontUrl(),
        { name: 'gw_test_input_required_result_sampling', arguments: {} },
        { elicitation: {} },
      );
      expect({ status: missing.status, error: missing.body.error }).toMatchObject({
        status: 400,
        error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } },
      });
    });

    it('tells a 2025 client, which this gateway cannot ask, in an isError result', async () => {
      const client = new V1Client({ name: 'relay-test-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      await client.connect(new V1Transport(new URL(frontUrl())));
      try {
        const result = (await client.callTool({ name: 'gw_test_input_required_result_elicitation', arguments: {} })) as CallToolResult;
        expect(result.isError).toBe(true);
      } finally {
        await client.close();
      }
    });
  });

  describe('a 2025 server that sends requests during a call', () => {
    it('puts its elicitation and sampling requests to a 2026-07-28 client as input_required, and its answers back', async () => {
      const client = await modernClient(frontUrl(), 'Ada');
      try {
        const elicited = (await client.callTool({ name: 'ev_trigger-elicitation-request', arguments: {} })) as CallToolResult;
        expect(elicited.isError).toBeFalsy();
        expect(textOf(elicited)).toContain('Ada');
        const sampled = (await client.callTool({
          name: 'ev_trigger-sampling-request',
          arguments: { prompt: 'a haiku' },
        })) as CallToolResult;
        expect(textOf(sampled)).toContain('an old silent pond');
      } finally {
        await client.close();
      }
    });

    it("seals the held call's key: a forged one is refused, and a retry that reaches another replica is told the call is not waiting there", async () => {
      const name = 'ev_trigger-elicitation-request';
      const first = await rawModernCall(frontUrl(), { name, arguments: {} }, { elicitation: {} });
      expect(first.body.result).toMatchObject({ resultType: 'input_required', requestState: expect.stringMatching(/^v2\./) });
      const [key] = Object.keys(first.body.result?.inputRequests as object);
      const inputResponses = { [key]: { action: 'accept', content: { name: 'Ada' } } };
      const forged = await rawModernCall(
        frontUrl(),
        { name, arguments: {}, inputResponses, requestState: `held:${key}` },
        { elicitation: {} },
      );
      expect(forged.body.error?.code).toBe(-32602);
      const sealed = first.body.result?.requestState;
      const elsewhere = await rawModernCall(
        otherReplica.match[1],
        { name, arguments: {}, inputResponses, requestState: sealed },
        { elicitation: {} },
      );
      expect(elsewhere.body.result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/is not waiting for these answers on this replica/) }],
      });
      // The replica that holds it still completes it.
      const here = await rawModernCall(frontUrl(), { name, arguments: {}, inputResponses, requestState: sealed }, { elicitation: {} });
      expect(here.body.result).toMatchObject({ resultType: 'complete' });
      expect(textOf(here.body.result as unknown as CallToolResult)).toContain('Ada');
    });

    it("holds no more of a bundle's calls than mcp.heldCalls allows: the next is cancelled with an isError result (issue 43)", async () => {
      const name = 'ev_trigger-elicitation-request';
      const ask = () => rawModernCall(bounded.match[1], { name, arguments: {} }, { elicitation: {} });
      const [first, second] = [await ask(), await ask()];
      for (const held of [first, second]) expect(held.body.result).toMatchObject({ resultType: 'input_required' });
      const refused = await ask();
      expect(refused.body.result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/already holds as many calls waiting for input as it may/) }],
      });
      // A held call answered frees its place.
      const [key] = Object.keys(first.body.result?.inputRequests as object);
      const inputResponses = { [key]: { action: 'accept', content: { name: 'Ada' } } };
      const answered = await rawModernCall(
        bounded.match[1],
        { name, arguments: {}, inputResponses, requestState: first.body.result?.requestState },
        { elicitation: {} },
      );
      expect(answered.body.result).toMatchObject({ resultType: 'complete' });
      expect((await ask()).body.result).toMatchObject({ resultType: 'input_required' });
    });

    it('answers a 2026-07-28 client that did not declare elicitation at once, not a hang: the server shows it no such tool (issue 44)', async () => {
      const refused = await rawModernCall(frontUrl(), { name: 'ev_trigger-elicitation-request', arguments: {} }, { sampling: {} });
      expect(refused.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('ev_trigger-elicitation-request') });
    });

    it("puts its requests to a 2025 client on the call's event stream, and the client's answers back to the server", async () => {
      const client = await legacyClient(frontUrl(), true);
      try {
        const elicited = (await client.callTool({ name: 'ev_trigger-elicitation-request', arguments: {} })) as CallToolResult;
        expect(elicited.isError).toBeFalsy();
        expect(textOf(elicited)).toContain('Grace');
        const sampled = (await client.callTool({
          name: 'ev_trigger-sampling-request',
          arguments: { prompt: 'a haiku' },
        })) as CallToolResult;
        expect(textOf(sampled)).toContain('a frog jumps in');
        // A call whose server asks nothing is still answered with plain JSON.
        expect(textOf((await client.callTool({ name: 'ev_echo', arguments: { message: 'plain' } })) as CallToolResult)).toBe('Echo: plain');
      } finally {
        await client.close();
      }
    });

    it("gives the server a 2025 client's refusal of a request it cannot answer, and the client the server's result, not a hang", async () => {
      const client = await legacyClient(frontUrl(), false);
      try {
        const result = (await client.callTool({ name: 'ev_trigger-elicitation-request', arguments: {} })) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/Method not found/); // the client's own answer, as the server reports it
      } finally {
        await client.close();
      }
    });
  });
});
