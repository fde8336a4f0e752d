import { errorMessage } from '@toolmesh/protocol';
import type { ToolDefinition, ToolTarget } from '@toolmesh/registry';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import type { RequestStateSeal } from '../../call/request-state-seal';
import type { ToolCallOutcome } from '../../call/tool-call-outcome';
import type { FederatedTasks } from '../../upstreams/federated-tasks';
import { type ForwardedCall, type ForwardedCallRequest, forwardToolCall, passedOn } from '../../upstreams/forward-tool-call';
import { readForwardedState, sealedInput } from '../../upstreams/forwarded-state';
import type { McpUpstreams } from '../../upstreams/mcp-upstreams';
import { refusalOf } from '../../upstreams/upstream-refusal';
import type { CallSlots } from '../call-slots';
import { stateBinding } from '../request-state-binding';
import { type CallExtras, logCallEnd, notCalled, type ToolCallObserver } from '../tool-call';
import type { ToolInvoker } from './tool-invoker';

type McpTarget = Extract<ToolTarget, { kind: 'mcp' }>;

export interface McpInvokerDeps {
  /** The MCP servers of `mcpServer` bundles; without them such a tool is not called. */
  readonly upstreams: McpUpstreams | undefined;
  readonly slots: CallSlots;
  readonly requestStates: RequestStateSeal;
  readonly logger: Logger;
  readonly observe?: ToolCallObserver;
  /** The MCP servers' tasks (issue 47), when the gateway serves tasks: a call whose caller asked for a task is relayed as one. */
  readonly federatedTasks?: FederatedTasks;
}

/**
 * A tool of an MCP server bundle (issue 28, ADR 0024): its call forwarded as MCP `tools/call` of the tool's
 * name on its server (upstreams/forward-tool-call.ts), within the same per-tool and per-server limits as a
 * tool service's. Not async: handlers on the forwarded call's promise (docs/adr/0005-gateway-hot-path.md).
 */
export class McpServerInvoker implements ToolInvoker<McpTarget> {
  constructor(private readonly deps: McpInvokerDeps) {}

  invoke(
    tool: ToolDefinition,
    target: McpTarget,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
  ): Promise<ToolCallOutcome> {
    const { federatedTasks } = this.deps;
    // A retry that brings answers continues a plain call's MRTR round (the server asked before any task started).
    if (extras.task !== undefined && extras.answers === undefined && federatedTasks !== undefined)
      return this.asTask(federatedTasks, tool, target, args, context, extras, timeoutMillis);
    return this.forward(tool, target, args, context, extras, timeoutMillis);
  }

  /**
   * A call whose caller asked for a task (issue 47), made a task request to its server where the server
   * offers tasks (else forwarded as any call): the server's task under the gateway's sealed id, or the
   * result it gave at once. Its own requests on the way are not relayed (a task's input is asked through
   * the task, which is not relayed yet).
   */
  private asTask(
    federated: FederatedTasks,
    tool: ToolDefinition,
    target: McpTarget,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
  ): Promise<ToolCallOutcome> {
    const { name } = tool;
    const wish = extras.task as NonNullable<CallExtras['task']>;
    const refused = this.deps.slots.take(tool, context);
    if (refused !== undefined) return Promise.resolve(refused);
    const started = performance.now();
    const ended = (outcome: ToolCallOutcome, status: string): ToolCallOutcome => {
      this.deps.slots.release(tool);
      const durationMs = Math.round(performance.now() - started);
      this.deps.observe?.(name, durationMs, status === 'ok' || status === 'task' || status === 'is_error' ? undefined : status);
      logCallEnd(this.deps.logger, name, status, durationMs, context);
      return outcome;
    };
    return federated.call(tool.routeToken, name, target.upstreamTool, args, wish.owner, wish.ttlMillis).then(
      (called) => {
        if (called === undefined) {
          this.deps.slots.release(tool);
          return this.forward(tool, target, args, context, extras, timeoutMillis);
        }
        if ('task' in called) return ended({ kind: 'task', task: called.task }, 'task');
        const result = passedOn(called.result);
        return ended({ kind: 'result', result }, result.isError === true ? 'is_error' : 'ok');
      },
      (error: unknown) => {
        const refusal = refusalOf(error, extras.callerCapabilities);
        if (refusal !== undefined) return ended({ kind: 'refused_upstream', refusal }, 'jsonrpc_error');
        const text = `Tool ${name} failed: ${errorMessage(error)}`;
        return ended({ kind: 'result', result: { content: [{ type: 'text', text }], isError: true } }, 'failed');
      },
    );
  }

  private forward(
    tool: ToolDefinition,
    { upstreamTool }: McpTarget,
    args: Record<string, unknown>,
    context: RequestContext,
    extras: CallExtras,
    timeoutMillis: number,
  ): Promise<ToolCallOutcome> {
    const { name } = tool;
    const { slots, upstreams } = this.deps;
    const connection = upstreams?.connectionNow(tool.routeToken);
    if (upstreams === undefined || connection === undefined) return Promise.resolve(notCalled(name, 'its MCP server is not configured'));
    const answers = forwardedAnswers(extras);
    if (answers === 'invalid') return Promise.resolve({ kind: 'invalid_request_state', reason: 'not_sealed_here' });
    const refused = slots.take(tool, context);
    if (refused !== undefined) return Promise.resolve(refused);
    const started = performance.now();
    let forwarding: Promise<ForwardedCall>;
    try {
      forwarding = forwardToolCall(
        { bundle: tool.routeToken, connection, held: upstreams.held },
        {
          method: 'tools/call',
          tool: name,
          target: upstreamTool,
          args,
          callerCapabilities: extras.callerCapabilities,
          answers,
          callerRelay: extras.callerRelay,
          callerStream: extras.callerStream,
        },
        context,
        extras.trace,
        timeoutMillis,
      );
    } catch (error) {
      forwarding = Promise.reject(error);
    }
    return forwarding.then(
      (forwarded) => {
        slots.release(tool);
        const cancelled = context.hangUp?.happened === true || extras.callerStream?.cancelled === true;
        return this.outcomeOf(name, args, forwarded, context, Math.round(performance.now() - started), cancelled);
      },
      (error: unknown) => {
        slots.release(tool);
        throw error;
      },
    );
  }

  /**
   * A forwarded call's end: observed, logged once, and passed up as it is, already an outcome; only an
   * input request changes, its state sealed for the caller.
   */
  private outcomeOf(
    name: string,
    args: Record<string, unknown>,
    forwarded: ForwardedCall,
    context: RequestContext,
    durationMs: number,
    /** The caller hung up or cancelled the call: nobody reads its result. */
    cancelled: boolean,
  ): ToolCallOutcome {
    const failure = forwarded.kind === 'result' ? forwarded.failure : forwarded.kind === 'refused_upstream' ? 'jsonrpc_error' : undefined;
    this.deps.observe?.(name, durationMs, failure);
    const status = cancelled
      ? 'cancelled'
      : forwarded.kind === 'input_required'
        ? 'input_required'
        : (failure ?? (forwarded.kind === 'result' && forwarded.result.isError ? 'is_error' : 'ok'));
    logCallEnd(this.deps.logger, name, status, durationMs, context);
    if (forwarded.kind !== 'input_required') return forwarded;
    return {
      kind: 'input_required',
      input: sealedInput(this.deps.requestStates, stateBinding(name, args, context), forwarded.input, forwarded.held),
    };
  }
}

/** A retry's answers as forwarding reads them: the client's responses, and what the state sealed here holds. */
function forwardedAnswers({ answers }: CallExtras): ForwardedCallRequest['answers'] | 'invalid' {
  if (answers === undefined) return undefined;
  const state = answers.requestState === undefined ? undefined : readForwardedState(answers.requestState);
  if (answers.requestState !== undefined && state === undefined) return 'invalid';
  return {
    ...(answers.inputResponses !== undefined && { inputResponses: answers.inputResponses as Record<string, unknown> }),
    ...(state && { state }),
  };
}
