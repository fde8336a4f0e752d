import { AgentErrorCode } from '../../errors/agent-errors';
import { type Script, type ScriptedLlmServer, startScriptedLlmServer, unreachableBaseUrl } from '../test-support/scripted-llm-server';
import { ChatCompletionsClient } from './chat-completions-client';
import type { ToolDefinition } from './chat-messages';
import type { ModelSettings } from './model-settings';

const TOOLS: ToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'Read', description: 'Reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  },
];
const MESSAGES = [{ role: 'user' as const, content: 'hello' }];

let server: ScriptedLlmServer | undefined;
afterEach(() => server?.close());

async function clientFor(script: Script, settings: Partial<ModelSettings> = {}): Promise<ChatCompletionsClient> {
  server = await startScriptedLlmServer(script);
  return new ChatCompletionsClient({
    provider: 'openai-chat',
    baseUrl: server.baseUrl,
    model: 'test-model',
    requestTimeoutMs: 10_000,
    ...settings,
  });
}

async function complete(client: ChatCompletionsClient, signal?: AbortSignal) {
  try {
    return await client.complete({ messages: MESSAGES, tools: TOOLS }, { signal });
  } finally {
    await client.close();
  }
}

describe('ChatCompletionsClient', () => {
  it('posts model, messages, the tools untouched and stream: true, with the key as a bearer token, and streams the text', async () => {
    const client = await clientFor([{ text: 'Hello there', toolCalls: [{ name: 'Read', arguments: { path: 'a.txt' } }] }], {
      apiKey: 'sk-test',
      apiKeyEnv: 'TEST_KEY',
    });
    const texts: string[] = [];
    const reply = await client.complete({ messages: MESSAGES, tools: TOOLS }, { onText: (t) => texts.push(t) });
    await client.close();

    expect(reply).toEqual({
      text: 'Hello there',
      toolCalls: [{ id: 'call_0_0', name: 'Read', arguments: '{"path":"a.txt"}' }],
      finishReason: 'tool_calls',
    });
    expect(texts.join('')).toBe('Hello there');
    expect(texts.length).toBeGreaterThan(1);
    const [request] = server?.requests ?? [];
    expect(request.body).toEqual({ model: 'test-model', messages: MESSAGES, tools: TOOLS, stream: true });
    expect(request.headers.authorization).toBe('Bearer sk-test');
  });

  it('sends no Authorization header without a key (Ollama, llama.cpp), and takes a non-streamed reply', async () => {
    const client = await clientFor([{ text: 'whole', stream: false }]);
    expect((await complete(client)).text).toBe('whole');
    expect(server?.requests[0].headers.authorization).toBeUndefined();
  });

  it('says a refused connection is one, naming the URL and the llm.baseUrl setting', async () => {
    const baseUrl = await unreachableBaseUrl();
    const client = new ChatCompletionsClient({ provider: 'openai-chat', baseUrl, model: 'm', requestTimeoutMs: 10_000 });
    await expect(complete(client)).rejects.toMatchObject({
      code: AgentErrorCode.LlmUnreachable,
      message: `cannot reach the LLM server at ${baseUrl} (ECONNREFUSED); start it, or set llm.baseUrl in the configuration to where it runs`,
    });
  });

  it("names the key's environment variable on 401, never the key", async () => {
    const client = await clientFor(
      [{ status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-te***' } }) }],
      { apiKey: 'sk-secret-value', apiKeyEnv: 'OPENAI_API_KEY' },
    );
    const error = await complete(client).catch((e: Error) => e);
    expect(error).toMatchObject({
      code: AgentErrorCode.LlmUnauthorized,
      message: expect.stringContaining('check the key in the environment variable OPENAI_API_KEY'),
    });
    expect((error as Error).message).toContain('HTTP 401: Incorrect API key provided');
    expect((error as Error).message).not.toContain('sk-secret-value');
  });

  it('asks for llm.apiKeyEnv on 403 when no key is configured', async () => {
    const client = await clientFor([{ status: 403, body: 'forbidden' }]);
    await expect(complete(client)).rejects.toMatchObject({
      code: AgentErrorCode.LlmUnauthorized,
      message: expect.stringContaining('set llm.apiKeyEnv to the name of the environment variable'),
    });
  });

  it('names the model on 404', async () => {
    const client = await clientFor([
      { status: 404, body: JSON.stringify({ error: 'model "test-model" not found, try pulling it first' }) },
    ]);
    await expect(complete(client)).rejects.toMatchObject({
      code: AgentErrorCode.LlmModelNotFound,
      message: expect.stringMatching(
        /HTTP 404: model "test-model" not found, try pulling it first: check that it serves model "test-model" \(llm\.model or --model\)/,
      ),
    });
  });

  it.each([429, 500, 503])("gives the status and the provider's message, shortened, for HTTP %i", async (status) => {
    const client = await clientFor([{ status, body: JSON.stringify({ error: { message: `busy ${'x'.repeat(1000)}` } }) }]);
    const error = (await complete(client).catch((e: Error) => e)) as Error & { code: string };
    expect(error.code).toBe(AgentErrorCode.LlmRequestFailed);
    expect(error.message).toMatch(new RegExp(`answered HTTP ${status}: busy x+…$`));
    expect(error.message.length).toBeLessThan(450);
  });

  it('calls a malformed stream malformed', async () => {
    const client = await clientFor([{ raw: 'data: {"choices":[{"delta":{"content":\n\n', contentType: 'text/event-stream' }]);
    await expect(complete(client)).rejects.toMatchObject({ code: AgentErrorCode.LlmMalformedResponse });
  });

  it('gives up with llm.timeout on a server that never answers, naming llm.requestTimeoutMs', async () => {
    const client = await clientFor([{ hang: true }], { requestTimeoutMs: 300 });
    await expect(complete(client)).rejects.toMatchObject({
      code: AgentErrorCode.LlmTimeout,
      message: expect.stringContaining('raise llm.requestTimeoutMs'),
    });
  });

  it('rejects with the abort reason when the signal aborts the request', async () => {
    const client = await clientFor([{ hang: true }]);
    const controller = new AbortController();
    const pending = complete(client, controller.signal);
    await waitFor(() => (server?.requests.length ?? 0) === 1);
    const reason = new Error('interrupted');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
