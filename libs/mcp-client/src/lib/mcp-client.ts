import { setMaxListeners } from 'node:events';

import {
  type CallToolResult,
  Client,
  type GetPromptResult,
  type Implementation,
  type InputRequiredResult,
  type LoggingMessageNotificationParams,
  type Progress,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  SdkError,
  SdkErrorCode,
  type StandardSchemaV1,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/client';
import {
  Cancellation,
  McpMetaKey,
  type McpTransport,
  NotificationFanout,
  type NotificationListener,
  type NotificationSource,
  printable,
  printableName,
  readMcpHeaderBindings,
} from '@toolmesh/protocol';
import { isConnectionClosed } from '@toolmesh/transport-http/client';

import { ChangeSubscription } from './change-subscription';
import { type EraSetting, type EraVerdict, versionNegotiation } from './client-era';
import { McpClientError, McpClientErrorCode } from './client-errors';
import { exchangeRequest, type ExchangingTransport, type RelayedMethod, type RelayedResults, RESULT_MEMBER } from './exchanged-call';
import { askedTheLegacyWay } from './legacy-asks';
import { SdkTransport } from './sdk-transport';
import { ServerFeatures } from './server-features';
import { clientCapabilities, registerServerRequests, type ServerRequestHandlers } from './server-requests';
import { TaskClient } from './tasks/task-client';
import { retriedAfterUrlConsent } from './url-elicitation-retry';

export type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  InputRequiredResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
  ToolAnnotations,
};

export interface McpClientOptions {
  /** The configured server name: stamped on notifications and used in error messages. */
  readonly serverName: string;
  readonly clientInfo: Implementation;
  /** Timeout of each request, the initialize handshake included unless `initializeTimeoutMs` is given. */
  readonly requestTimeoutMs: number;
  /** Timeout of the initialize handshake (a server's startup budget), when it differs from the requests'. */
  readonly initializeTimeoutMs?: number;
  /**
   * Where listener failures, transport reports and the client's own reports (`client.tool_dropped`,
   * `client.listen_failed`) go; the client never throws them.
   */
  readonly onError?: (error: Error) => void;
  /** Told once when the connection ends without `close()` (the server exited, the session expired). */
  readonly onClosed?: () => void;
  /**
   * Sampling, elicitation and roots, each declared only when given (at initialize, or in every
   * 2026-07-28 request's `_meta`, where the same handlers answer a result's `input_required` rounds).
   */
  readonly serverRequests?: ServerRequestHandlers;
  /**
   * The protocol era to speak. Default `legacy`, the SDK's (plain `initialize`, no probe); the agent
   * passes its configuration's, whose default is `auto`.
   */
  readonly era?: EraSetting;
  /** What an earlier connection found out: connect without probing (re-probed only if this fails). */
  readonly prior?: EraVerdict;
  /**
   * False: a 2026-07-28 server's change notifications are not listened for (no `subscriptions/listen`), for a
   * client made for one listing. Default true.
   */
  readonly listenForChanges?: boolean;
}

/**
 * The tool-facing MCP client of one server: initialize, tools/list, tools/call, close. It runs the
 * SDK's `Client` (handshake, version negotiation, request correlation, timeouts) over any of our
 * transports, and adds what the agent needs on top: the connection state, and every notification the
 * server sends delivered to listeners as a `ServerNotification`. Resources and prompts have an interface
 * of their own (`features`) rather than growing this one.
 */
export class McpClient implements NotificationSource {
  private readonly sdk: Client;
  private readonly notifications: NotificationFanout;
  private state: 'new' | 'connecting' | 'connected' | 'closed' = 'new';
  /** Set by close(): what the connection reports from then on is not reported. */
  private closing = false;
  /** Aborted by close(): every running call listens to it, so it is cancelled while the transport is open. */
  private readonly stopping = new AbortController();
  private running = 0;
  /** A 2026-07-28 server's change notifications come on this stream. */
  private changes: ChangeSubscription | undefined;
  /** Set when changes may have gone untold (a listen stream was reopened): the next list is fetched anew. */
  private listsStale = false;
  /** Ends the subscription to the host's root changes. */
  private stopRootsWatch: (() => void) | undefined;
  /**
   * The tools of the last `listTools` that mark no argument with `x-mcp-header`: a relayed call to one of
   * them needs no `Mcp-Param-*` header, which only the SDK's `callTool` mirrors.
   */
  private headerless: ReadonlySet<string> = new Set();
  /** The ids of exchanged calls (exchanged-call.ts), strings where the SDK's are numbers. */
  private exchanged = 0;
  /** A 2026-07-28 connection's `_meta` envelope, the same for every request. */
  private envelope: Record<string, unknown> | undefined;
  /** Made on first use: most connections are asked for tools only. */
  private serverFeatures: ServerFeatures | undefined;
  /** The SDK's view of the transport, once connecting: the task methods go through it past the SDK. */
  private sdkTransport: SdkTransport | undefined;
  private taskClient: TaskClient | undefined;

  constructor(
    private readonly transport: McpTransport,
    private readonly options: McpClientOptions,
  ) {
    const serverRequests = options.serverRequests ?? {};
    this.sdk = new Client(options.clientInfo, {
      capabilities: clientCapabilities(serverRequests),
      versionNegotiation: versionNegotiation(options.era ?? 'legacy'),
    });
    registerServerRequests(this.sdk, serverRequests);
    // Each running call listens on the shared stopping signal: dozens at once are normal, not a leak.
    setMaxListeners(0, this.stopping.signal);
    this.notifications = new NotificationFanout((error) => options.onError?.(asError(error)));
    // Once close() has begun, a server may still send requests (server-everything asks for the roots
    // 350 ms after initialize); answering them fails with "write after end", which is no news to anyone.
    this.sdk.onerror = (error) => {
      if (!this.closing) options.onError?.(error);
    };
    this.sdk.onclose = () => {
      const lost = this.state === 'connected';
      this.state = 'closed';
      this.stopRootsWatch?.();
      if (lost) options.onClosed?.();
    };
  }

  get serverName(): string {
    return this.options.serverName;
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  get serverInfo(): Implementation | undefined {
    return this.sdk.getServerVersion();
  }

  get protocolVersion(): string | undefined {
    return this.sdk.getNegotiatedProtocolVersion();
  }

  /** `modern` (2026-07-28, no `initialize`) or `legacy`, once connected. */
  get era(): 'modern' | 'legacy' | undefined {
    return this.sdk.getProtocolEra();
  }

  /** What this connection found out about the server's era, for the next connection to reuse. */
  get eraVerdict(): EraVerdict | undefined {
    const era = this.sdk.getProtocolEra();
    const discover = this.sdk.getDiscoverResult();
    if (era === 'modern' && discover) return { kind: 'modern', discover };
    return era === 'legacy' ? { kind: 'legacy' } : undefined;
  }

  get requestTimeoutMs(): number {
    return this.options.requestTimeoutMs;
  }

  /** The server's resources and prompts: an interface of their own (server-features.ts) rather than more of this one. */
  get features(): ServerFeatures {
    this.assertConnected();
    return (this.serverFeatures ??= new ServerFeatures(this.sdk, this.options.requestTimeoutMs));
  }

  /** The server's tasks (tasks/task-client.ts): a call as a task, its state, result and cancellation. */
  get tasks(): TaskClient {
    this.assertConnected();
    const transport = this.sdkTransport as SdkTransport;
    return (this.taskClient ??= new TaskClient({
      serverName: this.options.serverName,
      era: this.sdk.getProtocolEra() === 'modern' ? 'modern' : 'legacy',
      capabilities: this.sdk.getServerCapabilities(),
      timeoutMs: this.options.requestTimeoutMs,
      serverRequests: this.options.serverRequests ?? {},
      envelope: () => (this.envelope ??= this.modernEnvelope()),
      request: async (method, params, signal) => {
        this.assertConnected();
        try {
          return await transport.request(method, params, this.options.requestTimeoutMs, linkedSignal(signal, this.stopping.signal));
        } catch (error) {
          if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) throw this.connectionLost(method, error);
          throw error;
        }
      },
    }));
  }

  addNotificationListener(listener: NotificationListener): () => void {
    return this.notifications.addNotificationListener(listener);
  }

  /**
   * Opens the transport and finds the server's era (the `server/discover` probe, or the `prior`
   * verdict), then runs `initialize` for a legacy server, or opens the change-notification stream of
   * a modern one. On failure everything opened is closed again.
   */
  async connect(): Promise<void> {
    if (this.state !== 'new') throw new Error('McpClient.connect() may be called once');
    this.state = 'connecting';
    const transport = (this.sdkTransport = new SdkTransport(this.transport, {
      onNotification: (notification) => this.publish(notification),
      onToolDropped: (tool) => {
        // The name is the server's: escaped, so no control character reaches the terminal raw.
        this.options.onError?.(
          new McpClientError(
            McpClientErrorCode.ToolDropped,
            `tool "${printableName(tool.name)}" left out: its x-mcp-header annotations break the 2026-07-28 rules (${printable(tool.problem, 200)})`,
          ),
        );
      },
    }));
    try {
      await this.sdk.connect(transport, { timeout: this.initializeTimeoutMs, prior: this.options.prior });
    } catch (error) {
      this.state = 'closed';
      await this.transport.close().catch(() => undefined);
      if (transport.closedDuringProbe) {
        throw new McpClientError(
          McpClientErrorCode.ProbeClosed,
          `MCP server "${this.options.serverName}" ended the connection when asked server/discover (a legacy server); connect again with era legacy`,
          { cause: error },
        );
      }
      throw this.connectError(error);
    }
    // The transport may have ended during the handshake's last step.
    if (this.state === 'connecting') this.state = 'connected';
    if (this.state === 'connected' && this.sdk.getProtocolEra() === 'modern' && this.options.listenForChanges !== false)
      await this.listenForChanges();
    if (this.state === 'connected') this.watchRoots();
  }

  /**
   * Every tool the server lists (all pages). A 2026-07-28 list is served from the SDK's cache while its
   * `ttlMs` lasts; a change notification ends that at once.
   */
  async listTools(): Promise<Tool[]> {
    this.assertConnected();
    const cacheMode = this.listsStale ? 'refresh' : 'use';
    this.listsStale = false;
    const { tools } = await this.sdk.listTools(undefined, { timeout: this.options.requestTimeoutMs, cacheMode });
    this.headerless = new Set(tools.filter((tool) => marksNoHeader(tool)).map((tool) => tool.name));
    return tools;
  }

  /**
   * Calls a tool. With `onProgress`, a progress token is sent and each progress notification restarts
   * the request timeout, up to `maxTotalTimeoutMs` in all. A connection that ends while the call runs
   * fails it with `client.connection_lost`: the call may have run, so it is never repeated here. A
   * `-32042` (open a URL first) goes to the `urlElicitation` handler, and the call is made once more.
   */
  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal, options: CallToolOptions = {}): Promise<CallToolResult> {
    const call = () => this.call('tools/call', { name, arguments: args }, signal, options, false) as Promise<CallToolResult>;
    return retriedAfterUrlConsent(this.options.serverName, call, this.options.serverRequests?.urlElicitation, signal);
  }

  /**
   * A gateway's call, relaying MRTR (2026-07-28): an `input_required` result comes back as it is, for the
   * gateway's own client to fulfil, instead of being fulfilled by this client's handlers; `answers` are
   * that client's `inputResponses` and the server's `requestState`, for the retry. A 2025 server never
   * answers `input_required`: its requests go to the handlers (`options.serverRequests`, else the client's).
   * Over a transport that exchanges a request for its answer (Streamable HTTP) the call skips the SDK's
   * request machinery unless its arguments are mirrored in headers: `cancellation` is then its only
   * deadline (`timeoutMs` applies without one), and closing the client ends it with `client.connection_lost`.
   * A `Cancellation`, not an `AbortSignal`: a gateway makes one for every call it forwards (cancellation.ts).
   */
  callToolRelayingInput(
    name: string,
    args: Record<string, unknown>,
    answers: RelayedAnswers,
    cancellation?: Cancellation,
    options: CallToolOptions = {},
  ): Promise<CallToolResult | InputRequiredResult> {
    return this.requestRelayingInput('tools/call', name, args, answers, cancellation, options);
  }

  /**
   * `callToolRelayingInput` for any request whose server may ask for input on the way (issue 44): a tool's
   * call, a prompt's get (`target` its name, `args` its arguments) or a resource's read (`target` its URI),
   * relayed the same way. A prompt or a resource mirrors no argument in headers.
   */
  requestRelayingInput<M extends RelayedMethod>(
    method: M,
    target: string,
    args: Record<string, unknown> | undefined,
    answers: RelayedAnswers,
    cancellation?: Cancellation,
    options: CallToolOptions = {},
  ): Promise<RelayedResults[M] | InputRequiredResult> {
    const params = relayedParams(method, target, args, answers);
    if (this.transport.exchange && this.isConnected && (method !== 'tools/call' || this.needsNoMirroring(target))) {
      return this.exchangeCall(this.transport as ExchangingTransport, method, params, cancellation, options);
    }
    return this.call(method, params, cancellation?.signal, options, true) as Promise<RelayedResults[M] | InputRequiredResult>;
  }

  private async call(
    method: RelayedMethod,
    params: RelayedParams,
    signal: AbortSignal | undefined,
    options: CallToolOptions,
    allowInputRequired: boolean,
  ): Promise<RelayedResults[RelayedMethod] | InputRequiredResult> {
    this.assertConnected();
    // Our own abort as well as the caller's, so close() can cancel the call before the transport goes;
    // without a caller's signal the shared one alone (no allocation on the hot path).
    const abort = signal ? linkedAbort(signal, this.stopping.signal) : undefined;
    this.running += 1;
    const progress = options.onProgress;
    const request = { ...params, ...(options.meta && { _meta: options.meta }) };
    const requestOptions = {
      timeout: options.timeoutMs ?? this.options.requestTimeoutMs,
      signal: abort?.signal ?? this.stopping.signal,
      ...(allowInputRequired && { allowInputRequired }),
      ...(progress
        ? { onprogress: (p: Progress) => progress(p), resetTimeoutOnProgress: true, maxTotalTimeout: options.maxTotalTimeoutMs }
        : {}),
    };
    let result: RelayedResults[RelayedMethod] | InputRequiredResult;
    try {
      // A relayed call's result is passed on, not read: it skips the SDK's validation of every result
      // against the full schema and the tool's output schema, unless its arguments are mirrored in headers.
      result =
        method !== 'tools/call' || (allowInputRequired && this.needsNoMirroring(targetOf(params)))
          ? await this.sdk.request({ method, params: request }, PASSED_ON_RESULT[method], requestOptions)
          : ((await this.sdk.callTool(request as ToolCallRequestParams, requestOptions)) as CallToolResult | InputRequiredResult);
    } catch (error) {
      if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) throw this.connectionLost(targetOf(params), error);
      throw this.legacyAskIn(error, true) ?? error;
    } finally {
      abort?.unlink();
      this.running -= 1;
    }
    const legacyAsk = this.legacyAskIn(result, false);
    if (legacyAsk) throw legacyAsk;
    return result;
  }

  /**
   * A 2026-07-28 call that failed because its server asked us the 2025 way (legacy-asks.ts), as the error
   * that makes the session speak 2025-11-25 with it; undefined for any other outcome, and for every outcome
   * of a 2025 connection.
   */
  private legacyAskIn(outcome: unknown, failed: boolean): McpClientError | undefined {
    return this.sdk.getProtocolEra() === 'modern' ? askedTheLegacyWay(this.options.serverName, outcome, failed) : undefined;
  }

  /**
   * A relayed call over a transport that exchanges one request for its answer (exchanged-call.ts): none of
   * the SDK's per-request machinery, the server's requests during the call answered by
   * `options.serverRequests` (the client's own handlers without them). Closing the client ends it, as the
   * closed transport does.
   */
  private exchangeCall<M extends RelayedMethod>(
    transport: ExchangingTransport,
    method: M,
    params: RelayedParams,
    cancellation: Cancellation | undefined,
    options: CallToolOptions,
  ): Promise<RelayedResults[M] | InputRequiredResult> {
    const modern = this.sdk.getProtocolEra() === 'modern';
    const envelope = modern ? (this.envelope ??= this.modernEnvelope()) : undefined;
    // A 2025 call's `_meta` is the caller's own object: a copy of it per call is garbage. Merged with
    // Object.assign, not a spread: a spread of a call's objects promoted them (ADR 0005, twelfth round).
    const meta = envelope ? Object.assign({}, envelope, options.meta) : options.meta;
    const id = `x${(this.exchanged += 1)}`;
    // The call's own id is its progress token: unique among this connection's calls, whoever made them.
    if (options.onProgress) params._meta = Object.assign({}, meta, { progressToken: id });
    else if (meta !== undefined) params._meta = meta;
    this.running += 1;
    // Handlers on the call's promise, not an async function (ADR 0005, fourteenth round); exchangeRequest
    // never throws, its failures are its promise's.
    return exchangeRequest(transport, {
      id,
      method,
      params,
      cancellation:
        cancellation ??
        Cancellation.following(
          AbortSignal.any([this.stopping.signal, AbortSignal.timeout(options.timeoutMs ?? this.options.requestTimeoutMs)]),
        ),
      serverRequests: options.serverRequests ?? this.options.serverRequests ?? {},
      tellsCancellation: !modern,
      ...(options.onProgress && { onProgress: options.onProgress }),
      ...(options.onLog && { onLog: options.onLog }),
    }).then(
      (result) => {
        this.running -= 1;
        const legacyAsk = modern ? askedTheLegacyWay(this.options.serverName, result, false) : undefined;
        if (legacyAsk) throw legacyAsk;
        return result;
      },
      (error: unknown) => {
        this.running -= 1;
        if (isConnectionClosed(error)) throw this.connectionLost(targetOf(params), error);
        throw (modern && askedTheLegacyWay(this.options.serverName, error, true)) || error;
      },
    );
  }

  /** What the SDK puts in every 2026-07-28 request's `_meta`: our version, our name, our capabilities. */
  private modernEnvelope(): Record<string, unknown> {
    return {
      [McpMetaKey.ProtocolVersion]: this.sdk.getNegotiatedProtocolVersion(),
      [McpMetaKey.ClientInfo]: this.options.clientInfo,
      [McpMetaKey.ClientCapabilities]: clientCapabilities(this.options.serverRequests ?? {}),
    };
  }

  private connectionLost(target: string, cause: unknown): McpClientError {
    return new McpClientError(
      McpClientErrorCode.ConnectionLost,
      `the connection to MCP server "${this.options.serverName}" ended while "${target}" was running; it may have run, so it was not repeated`,
      { cause },
    );
  }

  /** A 2025 server has no `Mcp-Param-*` headers; a 2026-07-28 one none for a listed tool that marks no argument. */
  private needsNoMirroring(name: string): boolean {
    return this.sdk.getProtocolEra() !== 'modern' || this.headerless.has(name);
  }

  /**
   * Cancels the calls still running (each gets its `notifications/cancelled` while the transport is
   * still open), then closes the transport.
   */
  async close(): Promise<void> {
    this.closing = true;
    const running = this.running;
    this.stopping.abort(new Error('the client is closing'));
    // The cancellations are sent from the SDK's abort handlers; one turn of the event loop lets them go out.
    if (running > 0) await new Promise((resolve) => setImmediate(resolve));
    this.state = 'closed';
    // Closing the transport ends the listen stream; nothing more needs saying to the server.
    this.changes?.stop();
    this.stopRootsWatch?.();
    await this.sdk.close();
  }

  private publish(notification: Parameters<NotificationFanout['publish']>[0]['notification']): void {
    this.notifications.publish({ server: this.options.serverName, notification, receivedAt: new Date() });
  }

  /**
   * Tells an initialize-era server each change of the roots it was offered, while connected. A 2026-07-28
   * server has no session to tell: it gets the current roots in each `input_required` round.
   */
  private watchRoots(): void {
    const { roots, onRootsChange } = this.options.serverRequests ?? {};
    if (!roots || !onRootsChange) return;
    this.stopRootsWatch = onRootsChange(() => {
      if (this.state !== 'connected' || this.sdk.getProtocolEra() === 'modern') return;
      this.sdk.sendRootsListChanged().catch((error: unknown) => {
        if (!this.closing) this.options.onError?.(asError(error));
      });
    });
  }

  private async listenForChanges(): Promise<void> {
    const filter = ChangeSubscription.filterFor(this.sdk.getServerCapabilities());
    if (!filter) return;
    this.changes = await ChangeSubscription.open(this.sdk, filter, {
      timeoutMs: this.options.requestTimeoutMs,
      onError: (error) => {
        if (!this.closing) this.options.onError?.(new McpClientError(McpClientErrorCode.ListenFailed, error.message, { cause: error }));
      },
      onReopened: () => {
        // Whatever changed while the stream was down was never told: listeners hear it now.
        this.listsStale = true;
        if (filter.toolsListChanged) this.publish({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        if (filter.resourcesListChanged) this.publish({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
        if (filter.promptsListChanged) this.publish({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
      },
    });
  }

  private get initializeTimeoutMs(): number {
    return this.options.initializeTimeoutMs ?? this.options.requestTimeoutMs;
  }

  private assertConnected(): void {
    if (this.state !== 'connected') {
      throw new McpClientError(McpClientErrorCode.NotConnected, `MCP server "${this.options.serverName}" is not connected`);
    }
  }

  private connectError(error: unknown): McpClientError {
    const cause = asError(error);
    return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout
      ? new McpClientError(
          McpClientErrorCode.ConnectTimeout,
          `MCP server "${this.options.serverName}" did not finish initialize within ${this.initializeTimeoutMs} ms`,
          { cause },
        )
      : new McpClientError(
          McpClientErrorCode.ConnectFailed,
          `could not connect to MCP server "${this.options.serverName}": ${cause.message}`,
          { cause },
        );
  }
}

/** A relayed request's params, made for the one request (so its members are filled in one by one). */
type RelayedParams = {
  name?: string;
  uri?: string;
  arguments?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  _meta?: Readonly<Record<string, unknown>>;
};

type ToolCallRequestParams = Parameters<Client['callTool']>[0];

/**
 * A read names its resource by `uri`, the others by `name`. Built member by member: a spread of each call's
 * answers into a new literal kept the call's objects past two young collections
 * (docs/adr/0005-gateway-hot-path.md, twelfth round).
 */
function relayedParams(
  method: RelayedMethod,
  target: string,
  args: Record<string, unknown> | undefined,
  answers: RelayedAnswers,
): RelayedParams {
  const params: RelayedParams = method === 'resources/read' ? { uri: target } : { name: target };
  if (args !== undefined) params.arguments = args;
  if (answers.inputResponses !== undefined) params.inputResponses = answers.inputResponses;
  if (answers.requestState !== undefined) params.requestState = answers.requestState;
  return params;
}

/** The tool, prompt or resource a request names, for messages. */
function targetOf(params: RelayedParams): string {
  return params.name ?? params.uri ?? '';
}

/** A retry's answers to a 2026-07-28 server's `input_required` result, passed on as the client gave them. */
export interface RelayedAnswers {
  readonly inputResponses?: Record<string, unknown>;
  readonly requestState?: string;
}

export interface CallToolOptions {
  /** Each progress notification of the call; giving it sends a progress token. */
  readonly onProgress?: (progress: Progress) => void;
  /**
   * Each log message the server sends on the call's stream (`notifications/message`), over a transport that
   * exchanges the call (exchanged-call.ts); what level a server sends at is its own, or `meta`'s at 2026-07-28.
   */
  readonly onLog?: (message: LoggingMessageNotificationParams) => void;
  /** With `onProgress`: the hard cap on the whole call, however often progress restarts its timeout. */
  readonly maxTotalTimeoutMs?: number;
  /** This call's timeout instead of the client's `requestTimeoutMs` (a gateway's remaining deadline). */
  readonly timeoutMs?: number;
  /** The request's `_meta` (a gateway's correlation ids). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /**
   * A relayed call's own destination of the requests its server sends during it (a gateway's caller of
   * that call), instead of the client's handlers; declared capabilities stay the client's.
   */
  readonly serverRequests?: ServerRequestHandlers;
}

/**
 * What a relayed result must be to be passed on: an object with its method's array (`content`,
 * `messages`, `contents`), or an `input_required` result (which the SDK returns before this check).
 */
function passedOnResult<M extends RelayedMethod>(method: M): StandardSchemaV1<unknown, RelayedResults[M]> {
  const member = RESULT_MEMBER[method];
  return {
    '~standard': {
      version: 1,
      vendor: 'toolmesh',
      validate: (value) =>
        Array.isArray((value as Record<string, unknown> | null)?.[member])
          ? { value: value as RelayedResults[M] }
          : { issues: [{ message: `a ${method} result needs a ${member} array` }] },
    },
  };
}

const PASSED_ON_RESULT: { readonly [M in RelayedMethod]: StandardSchemaV1<unknown, RelayedResults[M]> } = {
  'tools/call': passedOnResult('tools/call'),
  'prompts/get': passedOnResult('prompts/get'),
  'resources/read': passedOnResult('resources/read'),
};

function marksNoHeader(tool: Tool): boolean {
  const reading = readMcpHeaderBindings(tool.inputSchema);
  return reading.ok && reading.bindings.length === 0;
}

/**
 * One signal aborted by either of two, for one call: cheaper than `AbortSignal.any`, whose dependent
 * signals the runtime tracks weakly; `unlink` takes the listeners off again when the call is over.
 */
function linkedAbort(first: AbortSignal, second: AbortSignal): { signal: AbortSignal; unlink: () => void } {
  const controller = new AbortController();
  const onFirst = () => controller.abort(first.reason);
  const onSecond = () => controller.abort(second.reason);
  if (first.aborted) onFirst();
  else if (second.aborted) onSecond();
  else {
    first.addEventListener('abort', onFirst, { once: true });
    second.addEventListener('abort', onSecond, { once: true });
  }
  return {
    signal: controller.signal,
    unlink: () => {
      first.removeEventListener('abort', onFirst);
      second.removeEventListener('abort', onSecond);
    },
  };
}

/** The caller's signal joined with the client's own (closing ends every request). */
function linkedSignal(signal: AbortSignal | undefined, stopping: AbortSignal): AbortSignal {
  return signal ? AbortSignal.any([signal, stopping]) : stopping;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
