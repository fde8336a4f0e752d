import {
  type CallToolResult,
  type GetPromptResult,
  type InputRequiredResult,
  type LoggingMessageNotificationParams,
  type Progress,
  ProtocolError,
  type ReadResourceResult,
} from '@modelcontextprotocol/client';
import {
  type Cancellation,
  type InboundResponse,
  isLoggingLevel,
  JsonRpcErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpTransport,
} from '@toolmesh/protocol';

import { answerServerRequest } from './input-requests';
import type { ServerRequestHandlers } from './server-requests';

/** A transport that can send one request and return its answer (Streamable HTTP). */
export type ExchangingTransport = McpTransport & Required<Pick<McpTransport, 'exchange'>>;

/**
 * The requests whose server may ask for input on the way, as 2026-07-28 says (`input_required`) and a 2025
 * server does with requests on the request's stream: a gateway relays each to its own caller (issue 44).
 */
export type RelayedMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** The result each of them completes with. */
export interface RelayedResults {
  readonly 'tools/call': CallToolResult;
  readonly 'prompts/get': GetPromptResult;
  readonly 'resources/read': ReadResourceResult;
}

/** The array member a result of each must have to be passed on: all it is checked for, the rest is the caller's to read. */
export const RESULT_MEMBER: Readonly<Record<RelayedMethod, string>> = {
  'tools/call': 'content',
  'prompts/get': 'messages',
  'resources/read': 'contents',
};

/** One relayed request sent through the transport's `exchange`, its answer passed on unread. */
export interface ExchangedCall {
  /** Of the client's own id space (a string, where the SDK's are numbers), so the two never meet. */
  readonly id: string;
  readonly method: RelayedMethod;
  readonly params: Record<string, unknown>;
  readonly cancellation?: Cancellation;
  /** Where the requests the server sends during the call go (elicitation, sampling, roots). */
  readonly serverRequests: ServerRequestHandlers;
  /** A 2025 server is told of a cancellation with `notifications/cancelled`; a 2026-07-28 one by the closed stream alone. */
  readonly tellsCancellation: boolean;
  /** Each `notifications/progress` of the call: its params must name the call's `id` as their `progressToken`. */
  readonly onProgress?: (progress: Progress) => void;
  /** Each `notifications/message` on the call's stream: the server's log messages while it ran the call. */
  readonly onLog?: (message: LoggingMessageNotificationParams) => void;
}

/**
 * A gateway's forwarded call, prompt or read (issues 28, 44) without the SDK client's request machinery:
 * one POST, its answer read from the JSON body or the event stream, the requests the server sends on that
 * stream answered by `serverRequests` (so each goes to the caller of the request it came with, without any
 * async context), and the result returned as the server sent it when it is one of the method's (its
 * `RESULT_MEMBER` array), or an `input_required` result. The server's JSON-RPC error is thrown as the SDK
 * would throw it.
 */
export function exchangeRequest<M extends RelayedMethod>(
  transport: ExchangingTransport,
  call: ExchangedCall & { readonly method: M },
): Promise<RelayedResults[M] | InputRequiredResult> {
  const request: JSONRPCRequest = { jsonrpc: '2.0', id: call.id, method: call.method, params: call.params };
  const asked = new ServerRequestsOfCall(
    transport,
    call.serverRequests,
    call.onProgress && { token: call.id, tell: call.onProgress },
    call.onLog,
  );
  let exchanged: Promise<InboundResponse>;
  try {
    exchanged = transport.exchange(request, { cancellation: call.cancellation, route: (message) => asked.route(message) });
  } catch (error) {
    // A transport that throws instead of rejecting still fails only this call's promise: this function never throws.
    exchanged = Promise.reject(error);
  }
  // Handlers on the exchange's promise, not an async function: that would cost every call a promise of its
  // own and turns of the microtask queue (docs/adr/0005-gateway-hot-path.md, fourteenth round).
  return exchanged.then(
    (answer) => {
      asked.end();
      try {
        return resultOf(call.method, answer);
      } catch (error) {
        return failed(transport, call, error);
      }
    },
    (error: unknown) => {
      asked.end();
      return failed(transport, call, error);
    },
  );
}

/** A call that failed is thrown on; the server of a call we cancelled is told so when its era asks for it. */
function failed(transport: ExchangingTransport, call: ExchangedCall, error: unknown): never {
  const reason = call.cancellation?.reason;
  if (reason !== undefined && call.tellsCancellation) {
    const cancelled = { requestId: call.id, reason: reason.message };
    transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: cancelled }).catch(() => undefined);
  }
  throw error;
}

function resultOf<M extends RelayedMethod>(method: M, answer: InboundResponse): RelayedResults[M] | InputRequiredResult {
  if ('error' in answer) throw new ProtocolError(answer.error.code, answer.error.message, answer.error.data);
  const result = answer.result as Record<string, unknown>;
  if (result.resultType === 'input_required') return result as unknown as InputRequiredResult;
  const member = RESULT_MEMBER[method];
  if (!Array.isArray(result[member])) {
    throw new ProtocolError(JsonRpcErrorCode.InternalError, `the server answered ${method} with a result that has no ${member} array`);
  }
  if (result.resultType !== 'complete') return result as unknown as RelayedResults[M];
  // A 2026-07-28 `complete` is the era's to say again, as the SDK's own results leave it out. Copied
  // rather than deleted: a deleted key leaves the object slow to read and to serialize.
  const complete: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) if (key !== 'resultType') complete[key] = value;
  return complete as unknown as RelayedResults[M];
}

/**
 * The requests a server sends on one call's stream, each answered by the handlers with a message of
 * our own (the transport's `send`), and cancelled when the server says so or the call ends; and the
 * call's progress notifications, when it asked for them.
 */
class ServerRequestsOfCall {
  /** Made for the first request: most calls bring none. */
  private running: Map<string | number, AbortController> | undefined;

  constructor(
    private readonly transport: ExchangingTransport,
    private readonly handlers: ServerRequestHandlers,
    private readonly progress?: { readonly token: string; readonly tell: (progress: Progress) => void },
    private readonly log?: (message: LoggingMessageNotificationParams) => void,
  ) {}

  /**
   * Takes the server's requests, its cancellations of them, the call's progress and its log messages; leaves
   * every other message to the client.
   */
  route(message: JSONRPCMessage): boolean {
    if (this.progress !== undefined && 'method' in message && message.method === 'notifications/progress' && !('id' in message))
      return this.progressed(message.params);
    if (this.log !== undefined && 'method' in message && message.method === 'notifications/message' && !('id' in message))
      return this.logged(message.params);
    if ('method' in message && 'id' in message && message.id !== undefined) {
      void this.answer(message.id, message.method, message.params);
      return true;
    }
    if ('method' in message && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      const running = typeof requestId === 'string' || typeof requestId === 'number' ? this.running?.get(requestId) : undefined;
      running?.abort(new Error('cancelled by the server'));
      return running !== undefined;
    }
    return false;
  }

  /** A progress notification of this call is told (its token and fields checked); one of another token is not ours. */
  private progressed(params: unknown): boolean {
    const { progressToken, progress, total, message } = (params ?? {}) as Record<string, unknown>;
    if (this.progress === undefined || progressToken !== this.progress.token) return false;
    if (typeof progress !== 'number') return true; // malformed: dropped, as the SDK drops it
    this.progress.tell({
      progress,
      ...(typeof total === 'number' && { total }),
      ...(typeof message === 'string' && { message }),
    });
    return true;
  }

  /**
   * A log message on the call's stream is the call's (a server sends one of no request on its GET stream,
   * or with 2026-07-28 never): told when well-formed, dropped otherwise, as the SDK drops it.
   */
  private logged(params: unknown): boolean {
    const { level, data, logger } = (params ?? {}) as Record<string, unknown>;
    if (!isLoggingLevel(level) || data === undefined) return true;
    this.log?.({ level: level as LoggingMessageNotificationParams['level'], data, ...(typeof logger === 'string' && { logger }) });
    return true;
  }

  /** The call is over: whatever the server still waits for is abandoned. */
  end(): void {
    for (const running of this.running?.values() ?? []) running.abort(new Error('the call ended'));
  }

  private async answer(id: string | number, method: string, params: unknown): Promise<void> {
    const cancel = new AbortController();
    const running = (this.running ??= new Map());
    running.set(id, cancel);
    let reply: JSONRPCMessage;
    try {
      reply = { jsonrpc: '2.0', id, result: await answerServerRequest(this.handlers, method, params, cancel.signal) };
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
      reply = {
        jsonrpc: '2.0',
        id,
        error: {
          code: Number.isSafeInteger(code) ? (code as number) : JsonRpcErrorCode.InternalError,
          message: typeof message === 'string' ? message : 'the request failed',
          ...(data !== undefined && { data }),
        },
      };
    } finally {
      running.delete(id);
    }
    await this.transport.send(reply).catch(() => undefined);
  }
}
