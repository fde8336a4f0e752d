import {
  headerMismatch,
  invalidRequest,
  isModernProtocolVersion,
  McpHttpHeader,
  McpMethod,
  McpNotification,
  methodNotFound,
  type ParsedMessage,
} from '@toolmesh/protocol';
import type { DispatchOutcome, RequestContext } from '@toolmesh/transport-http/server';

import { sessionIdFor } from '../caller-capabilities';
import { type ChangeListeners, noRoomMessage, type TaskStatusListener } from '../change-notifications/change-listeners';
import { subjectDigest } from '../change-notifications/elicitation-completions';
import type { RequestHandler } from '../handlers/method-handler';
import { errorOutcome, resultOutcome } from '../outcomes';
import type { ProtocolEra } from '../protocol-era';
import { acceptsEventStream, headerValue } from '../request-headers';
import { type CallerRequests, inputNotRelayed } from './caller-requests';
import type { CallsInFlight } from './calls-in-flight';
import { checkLegacyVersion, type LegacyVersionPolicy } from './version-check';

const TOOLS_LIST_CHANGED = JSON.stringify({ jsonrpc: '2.0', method: McpNotification.ToolsListChanged });
const RESOURCES_LIST_CHANGED = JSON.stringify({ jsonrpc: '2.0', method: McpNotification.ResourcesListChanged });
/** 2025-11-25: a URL-mode elicitation's out-of-band interaction (a user's consent, issue 48) completed. */
const elicitationComplete = (elicitationId: string) =>
  JSON.stringify({ jsonrpc: '2.0', method: McpNotification.ElicitationComplete, params: { elicitationId } });
/** The one revision with JSON-RPC batches: its servers MUST receive them; 2025-06-18 removed them. */
const BATCH_VERSION = '2025-03-26';

/**
 * The initialize-based revisions (2025-03-26, 2025-06-18, 2025-11-25), served statelessly: every request
 * stands alone, `notifications/initialized` is acknowledged and forgotten (SPEC G7), `Mcp-Session-Id` is
 * correlation, never stored, that carries the relayed capabilities `initialize` declared (caller-capabilities.ts). A GET on the endpoint opens the stream of list-changed notifications.
 */
export class Era2025 implements ProtocolEra {
  readonly name = '2025';

  constructor(
    private readonly requests: ReadonlyMap<string, RequestHandler>,
    private readonly versions: LegacyVersionPolicy,
    private readonly listeners: ChangeListeners,
    private readonly callerRequests: CallerRequests,
    private readonly inFlight: CallsInFlight,
    /** Where tasks are served (issue 47): how a stream hears of its caller's tasks (`notifications/tasks/status`). */
    private readonly taskStatus?: (context: RequestContext, send: (message: string) => void) => TaskStatusListener,
  ) {}

  async dispatch(message: ParsedMessage, context: RequestContext): Promise<DispatchOutcome | undefined> {
    const id = message.kind === 'request' ? message.message.id : null;
    const method = message.kind === 'response' ? undefined : message.message.method;
    const header = headerValue(context, McpHttpHeader.ProtocolVersion);
    if (method === McpMethod.Initialize) {
      // initialize selects the 2025 era; a 2026 header on it contradicts the body (the SDK's rule).
      if (header !== undefined && isModernProtocolVersion(header)) {
        return errorOutcome(
          headerMismatch(id, `${McpHttpHeader.ProtocolVersion} ${header.slice(0, 32)} on initialize, which only 2025 versions use`),
          400,
        );
      }
    } else {
      const refused = checkLegacyVersion(id, header, this.versions);
      if (refused) return errorOutcome(refused, 400);
    }
    // Notifications (initialized, cancelled, ...) are acknowledged with 202 and nothing is kept, once a
    // cancellation stopped the call it names (calls-in-flight.ts); so is a response, once it settled the
    // relayed request it answers (caller-requests.ts).
    if (message.kind === 'response') this.callerRequests.answered(message.message);
    else if (message.kind === 'notification' && method === McpNotification.Cancelled)
      this.inFlight.cancel(message.message.params as Record<string, unknown> | undefined, context);
    if (message.kind !== 'request') return undefined;
    const params = (message.message.params ?? {}) as Record<string, unknown>;
    const handler = this.requests.get(message.message.method);
    if (!handler) return errorOutcome(methodNotFound(message.message.id, message.message.method));
    const outcome = await handler(params, context, message.message.id);
    if ('inputRequired' in outcome) return resultOutcome(message.message.id, inputNotRelayed(String(params.name)));
    if ('answered' in outcome) return outcome.answered;
    if (!('result' in outcome)) return errorOutcome(outcome);
    const answer = resultOutcome(message.message.id, outcome.result);
    // Correlation for the caller's later requests, never stored (SPEC G1), carrying the capabilities it
    // declared, which decide what it is shown (caller-capabilities.ts).
    return method === McpMethod.Initialize ? { ...answer, headers: { 'Mcp-Session-Id': sessionIdFor(params.capabilities) } } : answer;
  }

  /**
   * Whether a POST may be a batch: when it is at 2025-03-26 (its `MCP-Protocol-Version`, or without one the
   * version assumed when missing) and that version is served (SPEC N7). Each message is then dispatched
   * and version-checked as it would be alone.
   */
  readonly acceptsBatch = (context: RequestContext): boolean =>
    (headerValue(context, McpHttpHeader.ProtocolVersion) ?? this.versions.assumeVersionWhenMissing) === BATCH_VERSION &&
    this.versions.supportedVersions.includes(BATCH_VERSION);

  /**
   * GET: the 2025 stream of `notifications/tools/list_changed` (SPEC G21), of a verified caller's
   * `notifications/elicitation/complete` (issue 48), and of the caller's tasks' `notifications/tasks/status` (issue 47).
   */
  get(context: RequestContext): DispatchOutcome {
    const header = headerValue(context, McpHttpHeader.ProtocolVersion);
    if (header !== undefined && isModernProtocolVersion(header)) {
      return {
        ...errorOutcome(invalidRequest(null, 'the 2026-07-28 revision has no GET stream; POST subscriptions/listen instead'), 405),
        headers: { Allow: 'POST' },
      };
    }
    const refused = checkLegacyVersion(null, header, this.versions);
    if (refused) return errorOutcome(refused, 400);
    if (!acceptsEventStream(context)) {
      return errorOutcome(invalidRequest(null, 'a GET on this endpoint opens an event stream; send Accept: text/event-stream'), 406);
    }
    const client = context.clientAddress ?? '';
    const noRoom = this.listeners.noRoomFor(client);
    if (noRoom) return errorOutcome(invalidRequest(null, noRoomMessage(noRoom, this.listeners.limits)), noRoom === 'replica' ? 503 : 429);
    return {
      open: (stream) =>
        this.listeners.add(
          {
            toolsListChanged: () => stream.send(TOOLS_LIST_CHANGED),
            resourcesListChanged: () => stream.send(RESOURCES_LIST_CHANGED),
            close: () => stream.end(),
            ...(context.caller && {
              elicitations: {
                subjectDigest: subjectDigest(context.caller.subject),
                completed: (id) => stream.send(elicitationComplete(id)),
              },
            }),
            ...(this.taskStatus && { tasks: this.taskStatus(context, (message) => stream.send(message)) }),
          },
          stream,
          client,
        ),
    };
  }
}

/**
 * The method table of the 2025 era, in one place, without `initialize`: what `initialize` declares is read
 * from it (declared-capabilities.ts).
 */
export function era2025Methods(
  handlers: { toolsList: RequestHandler; toolsCall: RequestHandler },
  /** The resources, prompts and logging methods, when some bundle is an MCP server. */
  more: ReadonlyArray<[string, RequestHandler]> = [],
): ReadonlyMap<string, RequestHandler> {
  return new Map<string, RequestHandler>([
    [McpMethod.Ping, async () => ({ result: {} })],
    [McpMethod.ToolsList, handlers.toolsList],
    [McpMethod.ToolsCall, handlers.toolsCall],
    ...more,
  ]);
}
