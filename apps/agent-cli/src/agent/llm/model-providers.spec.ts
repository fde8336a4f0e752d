import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';

import { ExitCode } from '../../cli/exit-codes';
import { runCli } from '../../cli/run-cli';
import type { LlmProvider } from '../../config/llm-config';
import { loadConfig } from '../../config/load-config';
import { cliTestEnv } from '../../test-support/cli-env';
import {
  type RecordedRequest,
  type Script,
  type ScriptedDialect,
  type ScriptedLlmServer,
  startScriptedLlmServer,
  startScriptedServer,
} from '../test-support/scripted-llm-server';
import { ANTHROPIC_MESSAGES, GEMINI_GENERATE_CONTENT, OPENAI_RESPONSES } from '../test-support/scripted-provider-dialects';

/**
 * Every provider (`llm.provider`) in one parameterised spec: `run` with a real MCP server (server-everything
 * over stdio) and, in place of the model, a scripted fake of that provider's own HTTP API on loopback,
 * streaming the way its documentation shows. Each asks for an MCP tool and an image tool, then answers; the
 * requests have the provider's shapes, and the transcripts are the same whatever the provider.
 */
const KEY = 'sk-test-key-not-logged';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each API's own request body
interface ProviderCase {
  readonly provider: LlmProvider;
  readonly dialect?: ScriptedDialect;
  /** The environment variable its key is read from by default; none for chat completions. */
  readonly keyVariable?: string;
  /** Checks the first request (the task, the tools offered) and the second (the calls and their results). */
  checkRequests(first: RecordedRequest<Body>, second: RecordedRequest<Body>): void;
  /** An error body of this API for a refused key. */
  readonly unauthorizedBody: string;
  /** The start of a streamed answer of this API, cut before it ends (a server that died mid-reply). */
  readonly cutStream: string;
}

const TASK = 'Ask the server to echo hello and show its image';
const SCRIPT: Script = [
  {
    text: 'Let me ask.',
    toolCalls: [
      { id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'hello' } },
      { id: 'call_img', name: 'mcp__everything__get-tiny-image', arguments: {} },
    ],
  },
  { text: 'The server echoed hello and sent a tiny image.' },
];
const PNG = /^[A-Za-z0-9+/]+=*$/;

const CASES: readonly ProviderCase[] = [
  {
    provider: 'openai-chat',
    cutStream: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Let me' }, finish_reason: null }] })}\n\n`,
    unauthorizedBody: JSON.stringify({ error: { message: 'Incorrect API key provided' } }),
    checkRequests(first, second) {
      expect(first.url).toBe('/v1/chat/completions');
      expect(first.headers.authorization).toBeUndefined(); // no key unless llm.apiKeyEnv names one
      expect(first.body).toMatchObject({
        model: 'scripted-model',
        stream: true,
        messages: [{ role: 'system' }, { role: 'user', content: TASK }],
      });
      expect(first.body.tools.map((t: Body) => t.function.name)).toEqual(expect.arrayContaining(['mcp__everything__echo']));
      expect(second.body.messages.slice(2)).toEqual([
        {
          role: 'assistant',
          content: 'Let me ask.',
          tool_calls: [
            { id: 'call_echo', type: 'function', function: { name: 'mcp__everything__echo', arguments: '{"message":"hello"}' } },
            { id: 'call_img', type: 'function', function: { name: 'mcp__everything__get-tiny-image', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_echo', content: expect.stringContaining('hello') },
        { role: 'tool', tool_call_id: 'call_img', content: expect.stringContaining('(attached)') },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Returned by tool call call_img:' },
            { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,/) } },
          ],
        },
      ]);
    },
  },
  {
    provider: 'anthropic',
    cutStream: `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`,
    dialect: ANTHROPIC_MESSAGES,
    keyVariable: 'ANTHROPIC_API_KEY',
    unauthorizedBody: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }),
    checkRequests(first, second) {
      expect(first.url).toBe('/v1/messages');
      expect(first.headers['anthropic-version']).toEqual(expect.any(String));
      // The key as x-api-key, or (SDK 1.x) as a bearer token: both are Anthropic's documented authentication.
      expect(first.headers['x-api-key'] ?? first.headers.authorization).toMatch(new RegExp(`^(Bearer )?${KEY}$`));
      expect(first.body).toMatchObject({
        model: 'scripted-model',
        max_tokens: 8192,
        stream: true,
        system: expect.stringContaining('agent'),
        messages: [{ role: 'user', content: [{ type: 'text', text: TASK }] }],
      });
      const tools = first.body.tools as Body[];
      expect(tools.find((t) => t.name === 'mcp__everything__echo')).toMatchObject({ input_schema: { type: 'object' } });
      // The tool definitions end in a cache breakpoint: one, on the last tool.
      expect(tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
      expect(tools.filter((t) => t.cache_control)).toHaveLength(1);
      expect(second.body.messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me ask.' },
            { type: 'tool_use', id: 'call_echo', name: 'mcp__everything__echo', input: { message: 'hello' } },
            { type: 'tool_use', id: 'call_img', name: 'mcp__everything__get-tiny-image', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_echo', content: [{ type: 'text', text: expect.stringContaining('hello') }] },
            {
              type: 'tool_result',
              tool_use_id: 'call_img',
              content: [
                { type: 'text', text: expect.stringContaining('(attached)') },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(PNG) } },
              ],
            },
          ],
        },
      ]);
    },
  },
  {
    provider: 'openai-responses',
    cutStream: `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'resp', object: 'response', status: 'in_progress', output: [] } })}\n\n`,
    dialect: OPENAI_RESPONSES,
    keyVariable: 'OPENAI_API_KEY',
    unauthorizedBody: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
    checkRequests(first, second) {
      expect(first.url).toBe('/v1/responses');
      expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(first.body).toMatchObject({
        model: 'scripted-model',
        stream: true,
        store: false,
        instructions: expect.stringContaining('agent'),
        input: [{ role: 'user', content: TASK }],
      });
      expect((first.body.tools as Body[]).find((t) => t.name === 'mcp__everything__echo')).toMatchObject({
        type: 'function',
        strict: false,
        parameters: { type: 'object' },
      });
      expect(second.body.input.slice(1)).toEqual([
        { role: 'assistant', content: 'Let me ask.' },
        { type: 'function_call', call_id: 'call_echo', name: 'mcp__everything__echo', arguments: '{"message":"hello"}' },
        { type: 'function_call', call_id: 'call_img', name: 'mcp__everything__get-tiny-image', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_echo', output: expect.stringContaining('hello') },
        {
          type: 'function_call_output',
          call_id: 'call_img',
          output: [
            { type: 'input_text', text: expect.stringContaining('(attached)') },
            { type: 'input_image', image_url: expect.stringMatching(/^data:image\/png;base64,/), detail: 'auto' },
          ],
        },
      ]);
    },
  },
  {
    provider: 'gemini',
    cutStream: `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Let me' }] }, index: 0 }] })}\n\n`,
    dialect: GEMINI_GENERATE_CONTENT,
    keyVariable: 'GEMINI_API_KEY',
    unauthorizedBody: JSON.stringify({
      error: { code: 403, message: 'API key not valid. Please pass a valid API key.', status: 'PERMISSION_DENIED' },
    }),
    checkRequests(first, second) {
      expect(first.url).toBe('/v1beta/models/scripted-model:streamGenerateContent?alt=sse');
      expect(first.headers['x-goog-api-key']).toBe(KEY);
      expect(first.body).toMatchObject({
        contents: [{ role: 'user', parts: [{ text: TASK }] }],
        systemInstruction: { parts: [{ text: expect.stringContaining('agent') }] },
      });
      const declarations = first.body.tools[0].functionDeclarations as Body[];
      expect(declarations.find((d) => d.name === 'mcp__everything__echo')).toMatchObject({ parametersJsonSchema: { type: 'object' } });
      expect(second.body.contents.slice(1)).toEqual([
        {
          role: 'model',
          parts: [
            { text: 'Let me ask.' },
            // Each call goes back with its thought signature, as Gemini wants it.
            {
              functionCall: { id: 'call_echo', name: 'mcp__everything__echo', args: { message: 'hello' } },
              thoughtSignature: 'signature-of-call_echo',
            },
            {
              functionCall: { id: 'call_img', name: 'mcp__everything__get-tiny-image', args: {} },
              thoughtSignature: 'signature-of-call_img',
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: { id: 'call_echo', name: 'mcp__everything__echo', response: { output: expect.stringContaining('hello') } },
            },
            {
              functionResponse: {
                id: 'call_img',
                name: 'mcp__everything__get-tiny-image',
                response: { output: expect.stringContaining('(attached)') },
              },
            },
            { inlineData: { mimeType: 'image/png', data: expect.stringMatching(PNG) } },
          ],
        },
      ]);
    },
  },
];

let llm: ScriptedLlmServer<Body> | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  /** Each piece of stdout as it was written: the streamed text arrives in pieces. */
  readonly writes: readonly string[];
  readonly stderr: string;
  readonly dir: string;
}

/** `run` with this provider against its fake, from a fresh directory holding the configuration. */
async function runWith(testCase: ProviderCase, script: Script, env: NodeJS.ProcessEnv): Promise<Run> {
  llm = testCase.dialect
    ? await startScriptedServer<Body>(script, testCase.dialect)
    : ((await startScriptedLlmServer(script)) as unknown as ScriptedLlmServer<Body>);
  const dir = mkdtempSync(path.join(tmpdir(), `provider-${testCase.provider}-`));
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:\n  provider: ${testCase.provider}\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\n` +
      `mcp:\n  servers:\n    - name: everything\n      command: ${JSON.stringify(EVERYTHING_BIN)}\n      args: [stdio]\n      annotationTrust: trust\n`,
  );
  let stdout = '';
  let stderr = '';
  const writes: string[] = [];
  const io = { stdout: (t: string) => void ((stdout += t), writes.push(t)), stderr: (t: string) => void (stderr += t) };
  const code = await runCli(['run', TASK, '--yes', '--transcript', 'transcript.jsonl'], io, {
    version: '0.0.0-test',
    cwd: dir,
    env: cliTestEnv({ PATH: process.env.PATH, ...env }),
  });
  return { code, stdout, stderr, dir, writes };
}

/** The transcript without what differs by nature between runs and providers: times, and where the model was. */
function comparableTranscript(dir: string): unknown[] {
  return readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => {
      const { ts, provider, baseUrl, ...rest } = JSON.parse(line) as Record<string, unknown>;
      void [ts, provider, baseUrl];
      return rest;
    });
}

const keyEnv = (testCase: ProviderCase): NodeJS.ProcessEnv => (testCase.keyVariable ? { [testCase.keyVariable]: KEY } : {});

describe('model providers (llm.provider)', () => {
  const transcripts = new Map<LlmProvider, unknown[]>();

  it.each(CASES)('$provider: calls an MCP tool through its own API, streamed, and answers', async (testCase) => {
    const { code, stdout, stderr, dir, writes } = await runWith(testCase, SCRIPT, keyEnv(testCase));

    expect({ code, stderr }).toEqual({ code: ExitCode.Ok, stderr: expect.stringContaining('[mcp__everything__echo: ok]') });
    expect(stdout).toBe('Let me ask.\nThe server echoed hello and sent a tiny image.\n');
    // The fakes stream each answer's text in three pieces, and each reaches stdout as it comes.
    expect(writes.slice(0, 3)).toEqual(['Let ', 'me a', 'sk.']);
    expect(llm?.requests).toHaveLength(2);
    const [first, second] = llm?.requests ?? [];
    testCase.checkRequests(first, second);
    const transcript = comparableTranscript(dir);
    expect(transcript[0]).toMatchObject({ type: 'session_start', model: 'scripted-model' });
    expect(JSON.stringify(transcript)).not.toContain(KEY);
    transcripts.set(testCase.provider, transcript);
  });

  it('records the same transcript whatever the provider', () => {
    expect([...transcripts.keys()]).toEqual(CASES.map((c) => c.provider));
    const [reference, ...others] = [...transcripts.values()];
    for (const transcript of others) expect(transcript).toEqual(reference);
  });

  it.each(CASES.filter((c) => c.keyVariable))(
    '$provider: a refused key is llm.unauthorized, naming the variable, never the key',
    async (testCase) => {
      const { code, stderr } = await runWith(testCase, [{ status: 401, body: testCase.unauthorizedBody }], keyEnv(testCase));

      expect(code).toBe(ExitCode.Failure);
      expect(stderr).toContain(`check the key in the environment variable ${testCase.keyVariable} [llm.unauthorized]`);
      expect(stderr).not.toContain(KEY);
    },
  );

  it.each(CASES.filter((c) => c.keyVariable))(
    '$provider: without its key variable, run stops before any server starts',
    async (testCase) => {
      const { code, stderr } = await runWith(testCase, SCRIPT, {});

      expect(code).not.toBe(ExitCode.Ok);
      expect(stderr).toContain(`llm.provider ${testCase.provider} needs a key: export ${testCase.keyVariable}`);
      expect(llm?.requests).toHaveLength(0);
    },
  );

  it('config/examples/agent-anthropic.yaml takes where the API is and the model from the environment', () => {
    const example = path.join(__dirname, '../../../../../config/examples/agent-anthropic.yaml');
    expect(loadConfig(example, {}).llm).toMatchObject({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet-5-5',
    });
    const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:8999', ANTHROPIC_MODEL: 'claude-haiku-4-5' };
    expect(loadConfig(example, env).llm).toMatchObject({
      provider: 'anthropic',
      baseUrl: env.ANTHROPIC_BASE_URL,
      model: env.ANTHROPIC_MODEL,
    });
  });

  it.each(CASES)('$provider: a stream cut short is an llm error, never an answer', async (testCase) => {
    const { code, stderr } = await runWith(testCase, [{ raw: testCase.cutStream, contentType: 'text/event-stream' }], keyEnv(testCase));

    expect(code).toBe(ExitCode.Failure);
    expect(stderr).toMatch(/\[llm\.(malformed_response|request_failed)\]/);
  });
});
