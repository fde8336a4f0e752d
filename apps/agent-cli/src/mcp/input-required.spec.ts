import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

import { TransportClientFactory } from './client-factory';
import { ClientFeatures } from './host/client-features';
import { DEFAULT_SERVER_REQUEST_LIMITS } from './host/server-request-limits';
import type { HttpServerConfig } from './server-config';

/**
 * A 2026-07-28 server asks the client for input in a tool call's result (`input_required`, SEP-2322)
 * instead of sending requests. The agent answers with the same handlers a 2025 server's requests get
 * (host/client-features.ts): its working directory as the root, a declined form without a terminal,
 * sampling refused without a model; the call is retried with a new id, the answers and the server's
 * requestState byte for byte. A hand-written server on loopback, the agent's real client factory.
 */
interface Call {
  readonly id: number | string;
  readonly params: { name: string; inputResponses?: Record<string, unknown>; requestState?: string; _meta?: Record<string, unknown> };
}

const STATE = '{"step":1, "nonce":"ÿ\\u0000 kept as sent"}';

describe("input_required rounds (2026-07-28) through the agent's client features", () => {
  let server: Server;
  let url: URL;
  let calls: Call[];
  const warnings: string[] = [];

  const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const { id, method, params } = JSON.parse(text) as { id?: number | string; method: string; params: Call['params'] };
      if (id === undefined) return void res.writeHead(202).end();
      if (method === 'server/discover') {
        return json(res, {
          jsonrpc: '2.0',
          id,
          result: {
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {} },
            ttlMs: 0,
            cacheScope: 'private',
          },
        });
      }
      if (method === 'tools/list') {
        return json(res, {
          jsonrpc: '2.0',
          id,
          result: { resultType: 'complete', tools: [{ name: 'ask', inputSchema: { type: 'object' } }], ttlMs: 0, cacheScope: 'private' },
        });
      }
      calls.push({ id, params });
      if (!params.inputResponses) {
        const inputRequests =
          params.name === 'think'
            ? {
                draft: {
                  method: 'sampling/createMessage',
                  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Draft a title' } }], maxTokens: 20 },
                },
              }
            : {
                where: { method: 'roots/list', params: {} },
                form: {
                  method: 'elicitation/create',
                  params: {
                    mode: 'form',
                    message: 'Your name?',
                    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
                  },
                },
              };
        return json(res, { jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests, requestState: STATE } });
      }
      return json(res, { jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text: 'thanks' }] } });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    calls = [];
    warnings.length = 0;
  });

  /** The agent's client of the server, with its client features; no terminal, no model. */
  async function withClient(use: (client: ReturnType<TransportClientFactory['create']>) => Promise<void>): Promise<void> {
    const features = new ClientFeatures({
      rootsFor: () => [__dirname],
      model: { unavailable: 'no model in this test' },
      samplingGate: { decide: async () => ({ allowed: false, reason: 'not in this test' }) },
      warn: (line) => warnings.push(line),
      limitsFor: () => DEFAULT_SERVER_REQUEST_LIMITS,
    });
    const factory = new TransportClientFactory({ name: 'mrtr-test', version: '0' }, { features });
    const config: HttpServerConfig = {
      name: 'asker',
      transport: 'streamable-http',
      url,
      headers: {},
      requestTimeoutMs: 5000,
      annotationTrust: 'ignore',
    };
    const client = factory.create(config, (error) => warnings.push(error.message));
    try {
      await client.connect();
      expect(client.era).toBe('modern');
      await use(client);
    } finally {
      await client.close();
      await factory.close();
    }
  }

  it("answers roots and a form with the agent's handlers and retries with a new id and the requestState unchanged", async () => {
    await withClient(async (client) => {
      const result = await client.callTool('ask', {});
      expect(result.content).toEqual([{ type: 'text', text: 'thanks' }]);
    });

    const [first, retry] = calls;
    expect(calls).toHaveLength(2);
    expect(retry.id).not.toEqual(first.id);
    expect(retry.params.requestState).toBe(STATE);
    expect(retry.params.inputResponses).toEqual({
      where: { roots: [{ uri: pathToFileURL(__dirname).href, name: 'mcp' }] },
      form: { action: 'decline' },
    });
    // The capabilities the handlers answer are declared on every request.
    expect(first.params._meta?.['io.modelcontextprotocol/clientCapabilities']).toEqual(
      expect.objectContaining({ roots: { listChanged: true }, elicitation: { form: {} }, sampling: {} }),
    );
    expect(warnings).toEqual([expect.stringContaining('asked for information (elicitation); declined: there is no terminal')]);
  });

  it('fails the call with the reason when sampling is refused: a 2026 input request has no way to be declined', async () => {
    await withClient(async (client) => {
      await expect(client.callTool('think', {})).rejects.toThrow('this client cannot sample: no model in this test');
    });
    expect(calls).toHaveLength(1);
  });
});
