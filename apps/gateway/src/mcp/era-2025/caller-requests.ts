import { randomUUID } from 'node:crypto';

import { type ParsedMessage, type RequestId, serializedText, serializeErrorResponse, serializeResultResponse } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { type CallerRelay, RelayRefusal, type ServerRequest } from '../../upstreams/server-request-relay';
import { callerCapabilities, declarationOf } from '../caller-capabilities';
import { type CallLogging, CallStream, type ProgressToken, progressTokenOf } from '../handlers/call-stream';
import type { HandlerResult } from '../handlers/method-handler';
import { acceptsEventStream } from '../request-headers';

type JsonRpcResponse = Extract<ParsedMessage, { kind: 'response' }>['message'];

interface Waiting {
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: Error) => void;
}

/**
 * The requests this replica sent 2025 callers on their calls' response streams (an MCP server's
 * elicitation, sampling or roots request, relayed; issue 28), until each caller's response comes back in
 * a POST of its own. The ids are ours and random, so a response can only settle the request it answers;
 * a response that reaches another replica settles nothing there, and its call runs to its deadline.
 */
export class CallerRequests {
  private readonly waiting = new Map<string, Waiting>();

  /**
   * The relay of one `tools/call` (request `id`), whose first request, progress notification or log message
   * turns the answer into an event stream; none for a caller that cannot take an event stream, which is then
   * never asked nor told anything. `logLevel`: what its session set, if anything.
   */
  relayFor(
    id: RequestId,
    params: Record<string, unknown>,
    context: RequestContext,
    logLevel: string | undefined,
  ): StreamedCall | undefined {
    if (!acceptsEventStream(context)) return undefined;
    const declared = declarationOf(callerCapabilities(params, context));
    return new StreamedCall(id, String(params.name), this, progressTokenOf(params), { level: logLevel }, declared);
  }

  /** A caller's response: settles the request it answers, if this replica sent it. */
  answered(response: JsonRpcResponse): void {
    const waiting = typeof response.id === 'string' ? this.waiting.get(response.id) : undefined;
    if (waiting === undefined) return;
    this.waiting.delete(response.id as string);
    if ('result' in response) waiting.resolve(response.result as Record<string, unknown>);
    else waiting.reject(new RelayRefusal(response.error.message, response.error.code, response.error.data));
  }

  /** Sends `request` under a new id through `send` and waits for the caller's response. */
  ask(request: ServerRequest, send: (id: string, json: string) => void, signal: AbortSignal): Promise<Record<string, unknown>> {
    const id = `toolmesh-${randomUUID()}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      signal.addEventListener('abort', () => this.forget(id, 'cancelled by the server'), { once: true });
      send(id, JSON.stringify({ jsonrpc: '2.0', id, method: request.method, params: request.params }));
    });
  }

  /** A request that will not be answered (its stream closed, or the server cancelled it) is refused. */
  forget(id: string, reason: string): void {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    waiting?.reject(new RelayRefusal(reason, -32603));
  }
}

/**
 * One 2025 `tools/call` whose server may ask its caller for input: each request goes on the call's stream
 * (CallStream), and its caller's response comes back in a POST of its own.
 */
export class StreamedCall extends CallStream implements CallerRelay {
  /** Every request sent; made for the first (most calls ask nothing). */
  private sent: string[] | undefined;

  constructor(
    id: RequestId,
    tool: string,
    private readonly requests: CallerRequests,
    progressToken: ProgressToken | undefined,
    logging: CallLogging,
    readonly declared: Readonly<Record<string, object>>,
  ) {
    super((answer) => responseText(id, tool, answer), progressToken, logging);
  }

  override get relay(): CallerRelay {
    return this;
  }

  ask(request: ServerRequest, signal: AbortSignal): Promise<Record<string, unknown>> {
    return this.requests.ask(
      request,
      (id, json) => {
        (this.sent ??= []).push(id);
        this.push(json);
      },
      signal,
    );
  }

  protected override closed(): void {
    for (const id of this.sent ?? []) this.requests.forget(id, 'the caller closed the stream');
  }
}

/** A call's response as the last event of its stream. */
function responseText(id: RequestId, tool: string, answer: HandlerResult): string {
  if ('answered' in answer) return 'json' in answer.answered ? serializedText(answer.answered.json) : '';
  if ('inputRequired' in answer) return serializedText(serializeResultResponse(id, inputNotRelayed(tool)));
  if ('result' in answer) return serializedText(serializeResultResponse(id, answer.result));
  return serializeErrorResponse(answer);
}

/**
 * A 2026-07-28 server's or a tool service's request for input (MRTR) has no way to a 2025 client: it
 * would need the retry that 2025 clients do not make. The model is told why.
 */
export function inputNotRelayed(name: unknown): object {
  const text = `Tool ${String(name)} needs input from the user or the client (an elicitation, sampling or roots request), which this gateway relays to 2026-07-28 clients only.`;
  return { content: [{ type: 'text', text }], isError: true };
}
