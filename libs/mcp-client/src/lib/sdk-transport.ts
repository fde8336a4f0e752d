import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import {
  isModernProtocolVersion,
  type JSONRPCMessage,
  type JSONRPCNotification,
  McpMethod,
  McpNotification,
  type McpTransport,
  type RequestId,
  type TransportSendOptions,
} from '@toolmesh/protocol';

import { DirectRequests } from './direct-requests';
import { type DroppedTool, dropUnmirrorableTools } from './unmirrorable-tools';

export interface SdkTransportHooks {
  /** Every inbound notification, after the SDK client has seen it. */
  readonly onNotification: (notification: JSONRPCNotification) => void;
  /** A tool of a 2026-07-28 HTTP server's list that was left out for its `x-mcp-header` annotations. */
  readonly onToolDropped: (tool: DroppedTool) => void;
}

/**
 * The SDK client's view of one of our transports (ADR 0010: the SDK's `Client` over our transports).
 * It passes everything through and adds what the SDK needs to know about the transport underneath:
 *
 * - every inbound notification goes to `onNotification` (the agent's listeners), after the SDK has
 *   seen it: the SDK evicts its cached lists on `list_changed`, so a listener that lists again gets
 *   the new list, not the cached one;
 * - a child-process transport shows `pid` and `stderr`, which is how the SDK recognises stdio (a probe
 *   that times out there means a legacy server; over HTTP it means an outage);
 * - an HTTP refusal of the `server/discover` probe reaches the SDK as the `SdkHttpError` (status and
 *   body) its era classifier reads: 401/403 an authorization error, 5xx a connect error, any other
 *   status classified by its JSON-RPC body, legacy without one;
 * - over HTTP, a 2026-07-28 `tools/list` page loses the tools whose `x-mcp-header` annotations break
 *   the rules (unmirrorable-tools.ts), told to `onToolDropped`;
 * - a 2026-07-28 result without `resultType` is `complete` (spec: the client assumes so; the SDK
 *   rejects such a result as invalid, which would fail a call that succeeded);
 * - whether the connection ended while the probe was unanswered (`closedDuringProbe`): a legacy stdio
 *   server that exits on any request before `initialize`, which a new process then meets with it;
 * - the client's own requests past the SDK (`request`, direct-requests.ts: the Tasks methods), whose
 *   answers the SDK never sees.
 */
export class SdkTransport implements McpTransport {
  onmessage?: McpTransport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly hasPerRequestStream: boolean | undefined;
  private probe: RequestId | undefined;
  private modern = false;
  private progressJustDelivered = false;
  private closedWhileProbing = false;
  /** Ids of the 2026-07-28 `tools/list` requests sent over HTTP, until answered. */
  private readonly toolLists = new Set<RequestId>();
  private readonly direct = new DirectRequests();

  constructor(
    private readonly inner: McpTransport,
    private readonly hooks: SdkTransportHooks,
  ) {
    this.hasPerRequestStream = inner.hasPerRequestStream;
    if ('pid' in inner) {
      // The SDK's test is structural ('stderr' in t && 'pid' in t); our transport keeps stderr to itself.
      Object.defineProperty(this, 'pid', { get: () => (inner as { pid?: number }).pid, enumerable: true });
      Object.defineProperty(this, 'stderr', { value: null, enumerable: true });
    }
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (this.direct.settle(message)) return;
      if ('id' in message && 'result' in message && (this.modern || message.id === this.probe)) completeByDefault(message.result);
      if ('id' in message && message.id === this.probe) this.probe = undefined;
      if ('id' in message && message.id !== undefined && this.toolLists.delete(message.id) && 'result' in message)
        dropUnmirrorableTools(message.result, this.hooks.onToolDropped);
      // The SDK runs notification handlers a microtask later but settles a response at once, dropping the
      // request's progress handler: a call's last progress notification, arriving together with its
      // result, would be reported as one for an unknown token. The response waits for it.
      if (this.progressJustDelivered && !('method' in message)) queueMicrotask(() => this.onmessage?.(message, extra));
      else this.onmessage?.(message, extra);
      if ('method' in message && message.method === McpNotification.Progress) this.markProgressDelivered();
      if (!('id' in message)) this.hooks.onNotification(message as JSONRPCNotification);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.direct.closeAll();
      if (this.probe !== undefined) this.closedWhileProbing = true;
      // After a response held back for a progress notification, so a result is never lost to the close.
      if (this.progressJustDelivered) queueMicrotask(() => this.onclose?.());
      else this.onclose?.();
    };
    await this.inner.start();
  }

  /** Set until the microtasks queued so far (the SDK's progress handler among them) have run. */
  private markProgressDelivered(): void {
    this.progressJustDelivered = true;
    queueMicrotask(() => (this.progressJustDelivered = false));
  }

  /** The connection ended while the `server/discover` probe was unanswered. */
  get closedDuringProbe(): boolean {
    return this.closedWhileProbing;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isProbe(message)) this.probe = (message as { id: RequestId }).id;
    // Over stdio no header carries an argument, so nothing needs dropping (the spec lets stdio clients keep them).
    if (this.modern && this.hasPerRequestStream && 'method' in message && 'id' in message && message.method === McpMethod.ToolsList)
      this.toolLists.add(message.id);
    try {
      await this.inner.send(message, options);
    } catch (error) {
      if (!isProbe(message)) throw error;
      // Refused, not unanswered: the close that follows is not the server's doing.
      this.probe = undefined;
      throw asProbeRefusal(error);
    }
  }

  /** Sends one request past the SDK and returns its result (a JSON-RPC error thrown as a `ProtocolError`). */
  async request(method: string, params: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    const { id, answer } = this.direct.expect(timeoutMs, signal);
    this.inner.send({ jsonrpc: '2.0', id, method, params }).catch((error: unknown) => this.direct.fail(id, error));
    return answer;
  }

  close(): Promise<void> {
    this.direct.closeAll();
    // Our close (the SDK's after a failed or timed-out probe, or the owner's) is not the server ending it.
    this.probe = undefined;
    return this.inner.close();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.modern = isModernProtocolVersion(version);
    this.inner.setProtocolVersion?.(version);
  }
}

function isProbe(message: JSONRPCMessage): boolean {
  return 'method' in message && 'id' in message && message.method === McpMethod.ServerDiscover;
}

/** An HTTP status error (ours carry `status` and, for a refused modern request, `body`) as the SDK's. */
function asProbeRefusal(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { status, body } = error as { status?: unknown; body?: unknown };
  if (typeof status !== 'number') return error;
  return new SdkHttpError(
    SdkErrorCode.ClientHttpNotImplemented,
    error.message,
    { status, text: typeof body === 'string' ? body : undefined },
    { cause: error },
  );
}

function completeByDefault(result: unknown): void {
  if (typeof result === 'object' && result !== null && !('resultType' in result))
    (result as { resultType?: string }).resultType = 'complete';
}
