import type { RequestContext } from '@toolmesh/transport-http/server';

import { type ForwardedCall, type ForwardedCallRequest, forwardToolCall } from './forward-tool-call';
import { HeldCalls } from './held-calls';
import type { UpstreamAnswer } from './relayed-request';
import type { ServerRequest } from './server-request-relay';
import type { UpstreamCall, UpstreamConnection } from './upstream-connection';

/**
 * What forwarding does with a 2025 server's request during a call, whoever the caller is (issue 28): the
 * server's side is a stand-in connection whose call asks once and reports what its request got.
 */
const ELICIT: ServerRequest = { method: 'elicitation/create', params: { message: 'Your name?' } };
const context = { guid: 'g', requestId: 'r' } as RequestContext;
const LIMITS = { max: 256, maxPerBundle: 64 };

/**
 * A connection whose call asks `ELICIT` and ends with what the answer was, or the error's code; `answer`
 * is what its request got, `cancelled` whether its call was cancelled.
 */
function askingServer() {
  let call: UpstreamCall | undefined;
  let answered: (text: string) => void = () => undefined;
  const answer = new Promise<string>((resolve) => (answered = resolve));
  const connection = {
    relayRequest: async (_method: string, _name: string, _args: Record<string, unknown>, upstreamCall: UpstreamCall) => {
      call = upstreamCall;
      const answer = await upstreamCall.relay?.ask(ELICIT, new AbortController().signal).then(
        (result) => JSON.stringify(result),
        (error: { code?: number; message: string }) => `refused ${error.code}: ${error.message}`,
      );
      answered(String(answer));
      return { content: [{ type: 'text', text: String(answer) }] };
    },
  } as unknown as UpstreamConnection;
  return { connection: Promise.resolve(connection), answer, cancelled: () => call?.deadline?.cancellation.aborted === true };
}

const request = (extra: Partial<ForwardedCallRequest> = {}): ForwardedCallRequest => ({
  method: 'tools/call',
  tool: 'ev_ask',
  target: 'ask',
  args: {},
  ...extra,
});

const textOf = (forwarded: ForwardedCall) => (forwarded.kind === 'result' ? forwarded.result.content[0].text : undefined);

describe('forwardToolCall with a server that asks during the call', () => {
  it('refuses the request of a 2026 caller that did not declare what it needs, cancels the call, and hands the era the request to name', async () => {
    const server = askingServer();
    const forwarded = await forwardToolCall(
      { bundle: 'everything', connection: server.connection, held: new HeldCalls(LIMITS) },
      request({ callerCapabilities: { sampling: {} } }),
      context,
      undefined,
      5_000,
    );
    if (forwarded.kind !== 'input_required') throw new Error('expected the request');
    expect(Object.values(forwarded.input.inputRequests ?? {})).toEqual([ELICIT]);
    expect(forwarded.held).toBeUndefined();
    expect(await server.answer).toBe('refused -32601: the caller of this request did not declare elicitation');
    expect(server.cancelled()).toBe(true);
  });

  it("holds the call for a 2026 caller that can answer, and the retry's answer reaches the server", async () => {
    const server = askingServer();
    const held = new HeldCalls<UpstreamAnswer>(LIMITS);
    const first = await forwardToolCall(
      { bundle: 'everything', connection: server.connection, held },
      request({ callerCapabilities: { elicitation: {} } }),
      context,
      undefined,
      5_000,
    );
    if (first.kind !== 'input_required' || first.held === undefined) throw new Error('expected a held call');
    const [key] = Object.keys(first.input.inputRequests ?? {});
    const retry = await forwardToolCall(
      { bundle: 'everything', connection: server.connection, held },
      request({
        callerCapabilities: { elicitation: {} },
        answers: { inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } }, state: { held: first.held } },
      }),
      context,
      undefined,
      5_000,
    );
    expect(textOf(retry)).toBe('{"action":"accept","content":{"name":"Ada"}}');
  });

  it("cancels the call, not holds it, when its bundle's held calls are at their limit, and tells the model so (issue 43)", async () => {
    const held = new HeldCalls<UpstreamAnswer>({ max: 256, maxPerBundle: 1 });
    const forward = (server: ReturnType<typeof askingServer>) =>
      forwardToolCall(
        { bundle: 'everything', connection: server.connection, held },
        request({ callerCapabilities: { elicitation: {} } }),
        context,
        undefined,
        5_000,
      );
    const first = await forward(askingServer());
    expect(first).toMatchObject({ kind: 'input_required', held: expect.any(String) });

    const server = askingServer();
    const refused = await forward(server);
    expect(refused).toMatchObject({ kind: 'result', result: { isError: true }, failure: 'gateway.held_calls_full' });
    expect(textOf(refused)).toContain('already holds as many calls waiting for input as it may');
    expect(await server.answer).toBe('refused -32603: the gateway holds as many requests waiting for input as it may');
    expect(server.cancelled()).toBe(true);
    held.close();
  });

  it('answers the server with an error for a 2025 caller that cannot take an event stream, and the call goes on', async () => {
    const server = askingServer();
    const forwarded = await forwardToolCall(
      { bundle: 'everything', connection: server.connection, held: new HeldCalls(LIMITS) },
      request(),
      context,
      undefined,
      5_000,
    );
    expect(textOf(forwarded)).toBe('refused -32601: the caller of this request cannot take an event stream');
    expect(server.cancelled()).toBe(false);
  });
});

describe("forwardToolCall with a server's JSON-RPC error", () => {
  /** A connection whose call fails with `error`, as the client throws a server's JSON-RPC error: its code, message and data. */
  const failing = (error: { code: number | string; message: string; data?: unknown }) => ({
    connection: Promise.resolve({
      relayRequest: () => Promise.reject(Object.assign(new Error(error.message), error)),
    } as unknown as UpstreamConnection),
    bundle: 'everything',
    held: new HeldCalls<UpstreamAnswer>(LIMITS),
  });
  const MODERN = { callerCapabilities: { elicitation: {} } };
  const missingSampling = {
    code: -32021,
    message: 'Missing required client capability: sampling',
    data: { requiredCapabilities: { sampling: {} } },
  };

  it.each([
    ['a 2025 caller', {}],
    ['a 2026 caller', MODERN],
  ])('passes -32602 on to %s with the server message, cut to 500 characters', async (_caller, extra) => {
    const message = `Invalid arguments for tool ask: ${'x'.repeat(600)}`;
    const forwarded = await forwardToolCall(failing({ code: -32602, message }), request(extra), context, undefined, 5_000);
    expect(forwarded).toEqual({ kind: 'refused_upstream', refusal: { invalidParams: message.slice(0, 500) } });
  });

  it("passes a 2026 caller's -32021 on, naming what the server needs: the server was told that caller's capabilities", async () => {
    const forwarded = await forwardToolCall(failing(missingSampling), request(MODERN), context, undefined, 5_000);
    expect(forwarded).toEqual({ kind: 'refused_upstream', refusal: { requiredCapabilities: { sampling: {} } } });
  });

  it.each([
    ['-32021 to a 2025 caller, whose capabilities the server never saw', missingSampling, {}],
    ['-32021 without requiredCapabilities', { code: -32021, message: 'Missing required client capability' }, MODERN],
    ["the server's own fault, -32603", { code: -32603, message: 'Internal error' }, MODERN],
    ["a hop's refusal, -32020", { code: -32020, message: 'Header mismatch: Mcp-Name' }, MODERN],
    ['a legacy-range code, -32001', { code: -32001, message: 'Tool ask not found' }, {}],
  ])('keeps %s an isError result the model can read', async (_case, error, extra) => {
    const forwarded = await forwardToolCall(failing(error), request(extra), context, undefined, 5_000);
    expect(forwarded).toEqual({
      kind: 'result',
      result: { content: [{ type: 'text', text: `Tool ev_ask failed: ${error.message}` }], isError: true },
      failure: 'jsonrpc_error',
    });
  });

  it('keeps a failure to get an answer an isError result, with its own code', async () => {
    const error = { code: 'gateway.upstream_timeout', message: 'MCP server http://127.0.0.1/mcp did not answer within 10 ms' };
    const forwarded = await forwardToolCall(failing(error), request(MODERN), context, undefined, 5_000);
    expect(forwarded).toMatchObject({ kind: 'result', result: { isError: true }, failure: 'gateway.upstream_timeout' });
  });
});
