import { errorMessage } from '@toolmesh/protocol';
import type { ToolCatalogue, ToolDefinition, ToolTarget } from '@toolmesh/registry';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import type { BundleTokenExchanges } from '../../auth/bundle-token-exchanges';
import { callTimeoutMillis } from '../../call/call-timeout';
import type { RequestStateSeal } from '../../call/request-state-seal';
import type { ReplyForm, ToolCallOutcome } from '../../call/tool-call-outcome';
import type { ConsentRequired } from '../../call/user-consent';
import type { ToolClient, ToolHttpRequest, ToolHttpResponse } from '../../tool-client/tool-client';
import type { CallSlots } from '../call-slots';
import { stateBinding } from '../request-state-binding';
import { mapToolReply } from '../result-mapper';
import type { LongCalls } from '../tasks/long-calls';
import { type CallExtras, logCallEnd, notCalled, type ToolCallObserver } from '../tool-call';
import type { UserAuthorizations } from '../user-authorizations';
import type { OutboundHeaders } from './outbound-headers';
import type { ToolInvoker } from './tool-invoker';

/** What an HTTP tool call needs of the gateway. */
export interface HttpInvokerDeps {
  readonly client: ToolClient;
  readonly catalogue: ToolCatalogue;
  readonly headers: OutboundHeaders;
  readonly slots: CallSlots;
  readonly requestStates: RequestStateSeal;
  readonly maxToolTimeoutMillis: number;
  /** The bundles whose tool services get the caller's token exchanged for theirs (`tokenExchange`, issue 26). */
  readonly exchanges?: BundleTokenExchanges;
  /** The bundles whose tool services get their user's own token, got by consent (`userAuthorization`, issue 48). */
  readonly userTokens?: UserAuthorizations;
  readonly logger: Logger;
  readonly observe?: ToolCallObserver;
  /** What becomes of a long tool's `202 Accepted` (issue 47); without it a 202 is mapped as any reply. */
  readonly longCalls?: LongCalls;
}

/**
 * A call that is one HTTP request to a tool service (a manifest's tool or an OpenAPI operation): the caller's
 * token exchanged first where the bundle says so, one request with what is left of the deadline, never
 * retried (SPEC G12), and the reply mapped to a result (SPEC G13). Each kind says how the arguments become
 * the request and how the reply is read.
 */
export abstract class HttpToolInvoker<Target extends ToolTarget> implements ToolInvoker<Target> {
  /** A manifest tool's reply carries its result in a `data` envelope; an OpenAPI operation's is the result. */
  protected abstract readonly replyForm: ReplyForm;

  constructor(protected readonly deps: HttpInvokerDeps) {}

  /** The request of this kind of tool, or the problem that keeps it from being sent (the tool is then not called). */
  protected abstract request(
    tool: ToolDefinition,
    target: Target,
    args: Record<string, unknown>,
    headers: Record<string, string>,
    timeoutMillis: number,
    context: RequestContext,
  ): ToolHttpRequest | { problem: string };

  /** The tool's endpoint answered 404 or 410. */
  protected gone(_tool: ToolDefinition, _context: RequestContext): void {
    // Most kinds read nothing into it: an OpenAPI operation's 404 is about the resource asked for.
  }

  async invoke(
    tool: ToolDefinition,
    target: Target,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
  ): Promise<ToolCallOutcome> {
    const { name } = tool;
    const { client, slots, logger } = this.deps;
    const started = performance.now();
    // The caller's own authorization toward the service: its user's token (issue 48) or its token exchanged (issue 26).
    const asUser = this.deps.userTokens?.of(tool.routeToken);
    const authorizing = asUser ?? this.deps.exchanges?.exchangeOf(tool.routeToken);
    let authorization: string | undefined;
    if (authorizing !== undefined) {
      let authorized: string | ConsentRequired;
      try {
        authorized = await authorizing.authorization(context.caller, timeoutMillis);
      } catch (error) {
        const event = asUser ? 'user_authorization_failed' : 'token_exchange_failed';
        logger.warn(event, { tool: name, code: (error as { code?: string }).code ?? 'failed' }, context);
        return notCalled(name, errorMessage(error));
      }
      if (typeof authorized !== 'string') return { kind: 'consent_required', consent: authorized };
      authorization = authorized;
      timeoutMillis = callTimeoutMillis(this.deps.maxToolTimeoutMillis, context, tool.timeoutMillis);
    }
    const request = this.request(tool, target, args, this.deps.headers.of(context, extras, authorization), timeoutMillis, context);
    if ('problem' in request) return notCalled(name, request.problem);
    // A call that would become a task is refused before its service is called when its caller has too many working.
    const overCap = tool.task && (await this.deps.longCalls?.refusal(tool, extras.task));
    if (overCap) return overCap;
    const refused = slots.take(tool, context);
    if (refused !== undefined) return refused;
    let reply: ToolHttpResponse;
    try {
      reply = await client.post(request);
    } finally {
      slots.release(tool);
    }
    const durationMs = Math.round(performance.now() - started);
    if (reply.kind === 'reply' && (reply.status === 404 || reply.status === 410)) this.gone(tool, context);
    this.observed(name, reply, durationMs, context);
    if (reply.kind === 'reply' && reply.status === 202 && tool.task !== undefined && this.deps.longCalls)
      return this.deps.longCalls.accepted({
        tool,
        form: this.replyForm,
        accepted: reply.accepted,
        headers: request.headers,
        wish: extras.task,
        timeoutMillis: timeoutMillis - durationMs,
        hangUp: context.hangUp,
      });
    const mapped = mapToolReply(name, reply, durationMs, tool.output, this.replyForm);
    return 'inputRequired' in mapped
      ? { kind: 'input_required', input: this.deps.requestStates.sealInput(stateBinding(name, args, context), mapped.inputRequired) }
      : { kind: 'result', result: mapped };
  }

  /** The metrics told, and the call logged once. */
  private observed(name: string, reply: ToolHttpResponse, durationMs: number, context: RequestContext): void {
    const status = reply.kind === 'reply' ? reply.status : reply.reason;
    this.deps.observe?.(
      name,
      durationMs,
      reply.kind === 'failure' ? reply.reason : reply.status >= 300 ? `http_${Math.floor(reply.status / 100)}xx` : undefined,
    );
    logCallEnd(this.deps.logger, name, status, durationMs, context);
  }
}
