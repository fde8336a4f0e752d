import {
  type CompleteResult,
  type CompletionParams,
  type EraSetting,
  type EraVerdict,
  type Implementation,
  type InputRequiredResult,
  McpClient,
  McpSession,
  type Prompt,
  type RelayedAnswers,
  type RelayedMethod,
  type RelayedResults,
  type Resource,
  type ResourceTemplate,
  type ServerRequestHandlers,
  type SkillEntry,
  type TaskClient,
  type Tool,
} from '@toolmesh/mcp-client';
import { type Cancellation, McpMetaKey, McpNotification } from '@toolmesh/protocol';
import type { McpToolListing } from '@toolmesh/registry';
import { StreamableHttpClientTransport } from '@toolmesh/transport-http/client';
import type { Logger } from '@toolmesh/transport-http/server';
import type { Dispatcher } from 'undici';

import type { CircuitBreaker } from '../call/circuit-breaker';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { CallDeadline } from './call-deadline';
import type { LogMessage, ProgressUpdate } from './caller-stream';
import { attributeCapabilities, RELAYED_CAPABILITIES, type RelayedCapability } from './capability-attribution';
import { type ClientCredentialsSettings, ClientCredentialsToken } from './client-credentials';
import { correlationHeaders } from './correlation';
import { type ServerRequestRelay, serverRequestsTo } from './server-request-relay';
import { SoleCallRequests } from './sole-call-requests';
import { UpstreamLogLevels } from './upstream-log-levels';

export interface UpstreamSettings {
  /** The bundle's name: in logs, and the name the client gives the server. */
  readonly bundle: string;
  readonly url: URL;
  /** The server as logs, messages and status show it: origin and path, never credentials or query. */
  readonly location: string;
  readonly era: EraSetting;
  /** The headers a new connection sends, read then: a rotated secret is used from the next connection on. */
  readonly headers: () => Record<string, string>;
  /** The deadline of a connection's handshake and of one whole listing, every page. */
  readonly listTimeoutMillis: number;
  /** How many of one call's requests to our caller may wait for answers at once; past it they are refused. */
  readonly maxRelayedRequestsPerCall: number;
  /** `mcpServer.oauth`: the bearer token comes from the client credentials grant. */
  readonly oauth?: ClientCredentialsSettings;
}

export interface UpstreamDeps {
  /** The keep-alive pool every MCP server's requests go through. */
  readonly dispatcher: Dispatcher;
  readonly clientInfo: Implementation;
  readonly breaker: CircuitBreaker;
  readonly logger: Logger;
}

/** A server's resources, resource templates, prompts and skills (SEP-2640), every page of each (empty when it declares none). */
export interface UpstreamFeatures {
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
  readonly prompts: readonly Prompt[];
  readonly skills: readonly SkillEntry[];
}

/** What a forwarded call carries besides its arguments. */
export interface UpstreamCall {
  /** What is left of the request's deadline, capped by the tool's timeout. */
  readonly timeoutMillis: number;
  /** The request's `_meta`: the correlation ids. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** A 2026-07-28 retry's answers to the server's `input_required` result, its own `requestState` among them. */
  readonly answers?: RelayedAnswers;
  /**
   * The input capabilities our caller declared (elicitation, sampling, roots): a 2026-07-28 server is told
   * these with the call, so it asks for nothing our caller cannot give. Empty for a 2025 caller, whose
   * declaration this stateless gateway never sees.
   */
  readonly callerCapabilities?: Readonly<Record<string, unknown>>;
  /** Where the server's requests during the call go (elicitation, sampling, roots); refused without one. */
  readonly relay?: ServerRequestRelay;
  /** Each progress notification of the call, when our caller asked for them (its token is ours, `progressToken` in `_meta`). */
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** Each log message the server sends on the call's stream, when our caller wants them. */
  readonly onLog?: (message: LogMessage) => void;
  /**
   * The level our caller asked for: a 2026-07-28 server is asked the same in the call's `_meta` (and sends
   * nothing without it); a 2025 server's session, which is this replica's, is asked for it first when it was
   * asked for none as low (upstream-log-levels.ts).
   */
  readonly logLevel?: string;
  /**
   * Already started, moved by the relay, and aborting its `cancellation` when it runs out; without it the call
   * has `timeoutMillis` from now.
   */
  readonly deadline?: CallDeadline;
}

/** How `guarded` bounds a request besides its deadline. */
interface GuardOptions {
  /** The caller's hang-up (or the call's cancellation): a failure after it says nothing against the server. */
  readonly cancelled?: { readonly aborted: boolean };
  /** The request itself ends when the deadline's `cancellation` aborts: only waiting for a connection is raced. */
  readonly followsDeadline?: boolean;
  /**
   * The failure is read by operators only (a listing's, on the bundle's status, `/actuator/toolBundles`, which
   * shows the server's location anyway): the transport's own error (`HTTP 401`, `ECONNREFUSED`), not the
   * address-free summary a caller gets.
   */
  readonly forOperators?: boolean;
  /** Told when the request has ended, either way (before its promise settles). */
  readonly ended?: () => void;
}

/** What a watched server told changed: its tools, or its resources, templates, prompts or skills (skills are resources). */
export type UpstreamChange = 'tools' | 'features';

/** Waits before each new connection of a watched server whose connection was lost; the last repeats. */
const REOPEN_BACKOFF = { delaysMs: [250, 1000, 2000, 5000, 10_000, 30_000], afterLast: 'repeat' } as const;

/** The SDK's own timer, which never fires first: a call's deadline is its `CallDeadline`, which cancels it. */
const UNTIMED = 2 ** 31 - 1;

/**
 * One MCP server of one bundle, on this replica (issue 28): its session (libs/mcp-client's `McpSession`:
 * the client, opened on first use and again when it is lost, a 404 to a 2025 server's session renewed,
 * the era verdict reused), and what is the gateway's own around it: the circuit breaker, each request's
 * deadline, the relay of the server's requests to our caller, the bundle's credentials. A 2025 server's
 * session is this replica's own. Nothing of a call is ever repeated once it may have reached the tool.
 */
export class UpstreamConnection {
  private readonly session: McpSession;
  /** Set by `watch`: told of each change the server tells, and the connection is kept open. */
  private onChanged: ((change: UpstreamChange) => void) | undefined;
  /** Kept across connections, so a new one reuses the token while it lasts. */
  private readonly authorization: ClientCredentialsToken | undefined;
  private readonly logLevels: UpstreamLogLevels;
  /** Where the requests a 2025 server sends on its session's own stream go. */
  private readonly soleCall = new SoleCallRequests();

  constructor(
    private readonly settings: UpstreamSettings,
    private readonly deps: UpstreamDeps,
  ) {
    this.authorization = settings.oauth && new ClientCredentialsToken(settings.oauth, deps.dispatcher);
    const { bundle } = settings;
    // Codes only in every log line: a message may quote what the server said.
    this.logLevels = new UpstreamLogLevels(settings.listTimeoutMillis, (error) =>
      deps.logger.warn('mcp_upstream_set_level_failed', { bundle, code: codeOf(asError(error)) }),
    );
    this.session = new McpSession({
      newClient: (connection) => this.newClient(connection),
      backoff: REOPEN_BACKOFF,
      events: {
        onConnected: (client) => deps.logger.info('mcp_upstream_connected', { bundle, era: client.era ?? 'unknown' }),
        // What changed while the connection was down was never told: its reopening is told as a change.
        onReconnected: () => {
          this.onChanged?.('tools');
          this.onChanged?.('features');
        },
        onConnectFailed: (error) => deps.logger.warn('mcp_upstream_connect_failed', { bundle, code: codeOf(asError(error)) }),
        onRenewed: () => deps.logger.info('mcp_upstream_session_renewed', { bundle }),
        // Its handlers ask the 2025 way: spoken to with 2025-11-25 from now on, the call run again (legacy-asks.ts in mcp-client).
        onLegacyChosen: (why) => deps.logger.warn('mcp_upstream_era_legacy', { bundle, code: why.code }),
        onCloseFailed: (error) => deps.logger.warn('mcp_upstream_close_failed', { bundle, code: codeOf(asError(error)) }),
      },
    });
  }

  /**
   * Every page of the server's `tools/list` (the SDK follows `nextCursor`, at most 64 pages), and which of
   * its tools it lists only to clients declaring some capability, all within the listing deadline: those
   * are found out by listing again as clients declaring fewer (capability-attribution.ts). Its failure
   * goes to the bundle's status, the operator's (`forOperators`).
   */
  listTools(): Promise<McpToolListing> {
    return this.guarded(
      startedDeadline(this.settings.listTimeoutMillis),
      'tools/list',
      async (client) => {
        const tools = await client.listTools();
        const prior = client.eraVerdict;
        const requiredCapabilities = await attributeCapabilities(tools, (declared) => this.listAs(declared, prior));
        return { tools, requiredCapabilities };
      },
      { forOperators: true },
    );
  }

  /** Every page of the server's resources, resource templates, prompts and skills, all four within one listing deadline. */
  listFeatures(): Promise<UpstreamFeatures> {
    return this.guarded(
      startedDeadline(this.settings.listTimeoutMillis),
      'resources/list, resources/templates/list, prompts/list and skills/list',
      async ({ features }) => {
        const listing = { timeoutMs: this.settings.listTimeoutMillis };
        const [resources, resourceTemplates, prompts, skills] = await Promise.all([
          features.listResources(listing),
          features.listResourceTemplates(listing),
          features.listPrompts(listing),
          features.listSkills(listing),
        ]);
        return { resources, resourceTemplates, prompts, skills };
      },
    );
  }

  /** The server's completions of a prompt's or a resource template's argument, within `timeoutMillis`. */
  complete(params: CompletionParams, call: Pick<UpstreamCall, 'timeoutMillis' | 'meta'>): Promise<CompleteResult> {
    return this.guarded(startedDeadline(call.timeoutMillis), 'completion/complete', ({ features }) =>
      features.complete(params, { timeoutMs: call.timeoutMillis, meta: call.meta }),
    );
  }

  /**
   * A request of the server's tasks (issue 47; `TaskClient`, both eras): a tool's call as a task, a task's
   * state, result or cancellation, within `timeoutMillis` and behind the server's circuit breaker.
   */
  tasks<T>(what: string, timeoutMillis: number, run: (tasks: TaskClient) => Promise<T>): Promise<T> {
    return this.guarded(startedDeadline(timeoutMillis), what, (client) => run(client.tasks));
  }

  /**
   * A tool's call, a prompt's get or a resource's read (`target`: the tool's or prompt's name, the
   * resource's URI), any of which the server may answer with `input_required` (issue 44). A 2026-07-28
   * server's `input_required` result comes back as it is, for our caller to answer (MRTR relayed); a 2025
   * server's requests on the way go to `call.relay`. The request ends when its deadline does
   * (`call.deadline`, moved by the relay while our caller is asked; else `timeoutMillis` from now).
   */
  relayRequest<M extends RelayedMethod>(
    method: M,
    target: string,
    args: Record<string, unknown> | undefined,
    call: UpstreamCall,
  ): Promise<RelayedResults[M] | InputRequiredResult> {
    // The deadline's cancellation is the request's (a relayed one's: its hang-up too), not an AbortSignal:
    // it costs nothing until it is used (cancellation.ts in protocol).
    const deadline = call.deadline ?? startedDeadline(call.timeoutMillis);
    const { cancellation } = deadline;
    const serverRequests = serverRequestsTo(call.relay, this.settings.maxRelayedRequestsPerCall);
    return this.guarded(
      deadline,
      `${method} of ${target}`,
      (client) => {
        // Only a call whose level is lower than any the session was asked for waits for it to be asked, once.
        const lowering = this.logLevels.lowerFor(client, call.logLevel);
        if (lowering === undefined) return this.request(client, method, target, args, call, cancellation, serverRequests);
        return lowering.then(() => this.request(client, method, target, args, call, cancellation, serverRequests));
      },
      { cancelled: cancellation, followsDeadline: true, ended: () => this.soleCall.ended(serverRequests) },
    );
  }

  private request<M extends RelayedMethod>(
    client: McpClient,
    method: M,
    target: string,
    args: Record<string, unknown> | undefined,
    call: UpstreamCall,
    cancellation: Cancellation,
    serverRequests: ServerRequestHandlers,
  ): Promise<RelayedResults[M] | InputRequiredResult> {
    const modern = client.era === 'modern';
    // Only a 2025 server has a stream of its own to ask on (sole-call-requests.ts); `guarded` ends it.
    if (!modern) this.soleCall.began(serverRequests);
    return client.requestRelayingInput(method, target, args, call.answers ?? {}, cancellation, {
      timeoutMs: UNTIMED,
      onProgress: call.onProgress,
      onLog: call.onLog,
      meta: modern ? withCallerCapabilities(call) : call.meta,
      serverRequests,
    });
  }

  /**
   * Keeps a connection open to hear the server's `notifications/tools/list_changed`, and its resources' and
   * prompts' (a 2025 server's GET stream, a 2026-07-28 server's `subscriptions/listen`, which the client keeps
   * open itself for what the server declares `listChanged`), and tells `onChanged` of each. A lost connection is opened again after REOPEN_BACKOFF, in the background
   * and outside the circuit breaker, so no request ever waits for it; what changed while it was down was
   * never told, so its reopening is told as a change.
   */
  watch(onChanged: (change: UpstreamChange) => void): void {
    this.onChanged = onChanged;
    this.session.keepLive();
  }

  close(): Promise<void> {
    return this.session.close();
  }

  /**
   * Through the breaker, within the deadline (the connection's handshake included). Every failure counts
   * against the server (no connection, a lost one, no answer in time) except its own JSON-RPC errors and
   * the caller's cancellation, which say it is alive. A request that follows the deadline's cancellation
   * itself (a forwarded call) is raced against the deadline only while it waits for a connection: racing
   * every call cost promises that are garbage for every call (docs/adr/0005-gateway-hot-path.md).
   */
  private guarded<T>(
    deadline: CallDeadline,
    what: string,
    run: (client: McpClient) => Promise<T>,
    { cancelled, followsDeadline = false, forOperators = false, ended }: GuardOptions = {},
  ): Promise<T> {
    const { breaker } = this.deps;
    if (!breaker.admit()) {
      deadline.stop();
      return Promise.reject(
        new GatewayError(
          GatewayErrorCode.UpstreamUnavailable,
          `the MCP server of bundle ${this.settings.bundle} is not being called: its last connections failed; the next try is in ${Math.ceil(breaker.retryInMillis / 1000)} s`,
        ),
      );
    }
    let running: Promise<T>;
    try {
      running = followsDeadline ? this.session.run(run, deadline) : Promise.race([this.session.run(run), deadline.expired]);
    } catch (error) {
      running = Promise.reject(error);
    }
    // Handlers on the request's promise, not an async function: one promise and turn fewer per call (ADR 0005, fourteenth round).
    return running.then(
      (result) => {
        deadline.stop();
        ended?.();
        breaker.succeeded();
        return result;
      },
      (error: unknown) => {
        deadline.stop();
        ended?.();
        throw this.failed(error, deadline, what, cancelled, forOperators);
      },
    );
  }

  /**
   * What a failed request counts against the server, and what is thrown for it, which our caller may read:
   * the server's own answer as it is, else the bundle and what went wrong, never where the server is (a
   * transport's or token endpoint's message names its address; the log line has the code, the status page
   * the location). A failure only operators read is thrown as the transport told it.
   */
  private failed(
    error: unknown,
    deadline: CallDeadline,
    what: string,
    cancelled: GuardOptions['cancelled'],
    forOperators: boolean,
  ): unknown {
    const { breaker } = this.deps;
    const { bundle } = this.settings;
    if (deadline.ranOut) {
      breaker.failed();
      return new GatewayError(
        GatewayErrorCode.UpstreamTimeout,
        `the MCP server of bundle ${bundle} did not answer ${what} within ${deadline.lastWaitMillis} ms`,
      );
    }
    if (cancelled?.aborted || isServerAnswer(error)) {
      breaker.succeeded();
      return error;
    }
    breaker.failed();
    if (forOperators) return error;
    const code = codeOf(asError(error));
    return new GatewayError(GatewayErrorCode.UpstreamFailed, `the MCP server of bundle ${bundle} could not be used for ${what} [${code}]`, {
      cause: error,
    });
  }

  /**
   * The server's tools as a client declaring only `declared` sees them: a client of its own, outside the
   * session (a 2025 server keys its list on the session's `initialize`), that hears no changes and is
   * closed once it has listed. `prior`: the session's era, so no probe is repeated.
   */
  private async listAs(declared: readonly RelayedCapability[], prior: EraVerdict | undefined): Promise<Tool[]> {
    const client = this.newClient({ prior }, declared);
    try {
      await client.connect();
      return await client.listTools();
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /**
   * The client of one connection: the bundle's headers and token as they are now, the correlation headers.
   * The session's (with `lost`) declares every relayed capability and hears the server's changes; a
   * listing's (without) declares `declared` and hears nothing.
   */
  private newClient(
    { prior, lost }: { readonly prior: EraVerdict | undefined; readonly lost?: () => void },
    declared: readonly RelayedCapability[] = RELAYED_CAPABILITIES,
  ): McpClient {
    const { bundle, url, era, headers, listTimeoutMillis } = this.settings;
    // A 2025 server's list changes come on its GET stream; when that ends for good, the connection is given
    // up, and opened again (by `watch`, or by the next request).
    const transport = new StreamableHttpClientTransport(url, {
      dispatcher: this.deps.dispatcher,
      headers: headers(),
      messageHeaders: correlationHeaders,
      ...(this.authorization && { authorization: this.authorization }),
      ...(lost ? { onListenEnded: lost } : { listen: false }),
    });
    const client = new McpClient(transport, {
      serverName: bundle,
      clientInfo: this.deps.clientInfo,
      requestTimeoutMs: listTimeoutMillis,
      era,
      ...(prior && { prior }),
      // Codes only: a report's message may quote what the server said.
      onError: (error) => this.deps.logger.warn('mcp_upstream_report', { bundle, code: codeOf(error) }),
      ...(lost ? { onClosed: lost } : { listenForChanges: false }),
      // Declared to a 2025 server at initialize, for every request: each relayed request's go to its own
      // caller (`relayRequest`); the session's, on its own stream, to the one call running if there is one
      // (sole-call-requests.ts); a listing's are refused (server-request-relay.ts).
      serverRequests: declaring(
        lost ? this.soleCall.handlers : serverRequestsTo(undefined, this.settings.maxRelayedRequestsPerCall),
        declared,
      ),
    });
    if (lost)
      client.addNotificationListener(({ notification }) => {
        const change = CHANGES[notification.method];
        if (change !== undefined) this.onChanged?.(change);
      });
    return client;
  }
}

/** The notifications a watched server's changes come as. */
const CHANGES: Readonly<Record<string, UpstreamChange>> = {
  [McpNotification.ToolsListChanged]: 'tools',
  [McpNotification.ResourcesListChanged]: 'features',
  [McpNotification.PromptsListChanged]: 'features',
};

/** Only the handlers of `declared`: a client declares the capabilities whose handlers it has (server-requests.ts in mcp-client). */
function declaring(handlers: ServerRequestHandlers, declared: readonly RelayedCapability[]): ServerRequestHandlers {
  return Object.fromEntries(declared.map((capability) => [capability, handlers[capability]]));
}

/** A JSON-RPC error the server answered (the only errors with a numeric code): the server is alive. */
function isServerAnswer(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === 'number';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function codeOf(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : error.name;
}

/**
 * A 2026-07-28 call's `_meta`: the correlation ids, our caller's input capabilities and log level. Not a spread: a
 * spread of each call's objects into a new literal kept them past two young collections (ADR 0005,
 * twelfth round).
 */
function withCallerCapabilities(call: UpstreamCall): Record<string, unknown> {
  const meta: Record<string, unknown> = Object.assign({}, call.meta);
  meta[McpMetaKey.ClientCapabilities] = call.callerCapabilities ?? {};
  if (call.logLevel !== undefined) meta[McpMetaKey.LogLevel] = call.logLevel;
  return meta;
}

/** A forwarded resource or prompt request's deadline, hang-up and correlation ids. */

/** A deadline `millis` from now, for a request that is not relayed. */
function startedDeadline(millis: number): CallDeadline {
  const deadline = new CallDeadline();
  deadline.start(millis);
  return deadline;
}
