import { Minimatch } from 'minimatch';

import type { HookAction, HookDefinition } from '../../config/hook-file';
import { resultText, type Tool, type ToolResult } from '../../tools/tool';
import type { ToolCall } from '../tool-call';
import type { HttpActionRunner } from './actions/http-action';
import type { McpToolActionRunner } from './actions/mcp-tool-action';
import { safeDescription } from './actions/safe-description';
import { type ActionOutcome, combineVerdicts, readReply, type ReplyReading } from './hook-reply';
import type { HookEventContext } from './hook-template';
import type { PreToolUseVerdict, ToolUseHooks } from './tool-use-hooks';

export interface HookActionRunners {
  readonly mcp: Pick<McpToolActionRunner, 'run'>;
  readonly http: Pick<HttpActionRunner, 'run'>;
}

export interface HookLogger {
  warn(message: string): void;
}

interface MatchedHook {
  readonly definition: HookDefinition;
  readonly matcher: Minimatch;
}

/**
 * The hooks of the configured hook files, as the tool executor's `ToolUseHooks`. The hooks matching an event
 * run in parallel (each under its own timeout), so one slow hook does not add to another's time; their
 * verdicts combine as deny > defer > allow. Fail-soft (seed §7.1): a hook that cannot be run or answers
 * something unusable is a warning and counts as no decision. Warnings name the hook, its action and the
 * tool, never argument values, bodies or header values. Never throws.
 */
export class ConfiguredHooks implements ToolUseHooks {
  private readonly hooks: readonly MatchedHook[];

  constructor(
    definitions: readonly HookDefinition[],
    private readonly runners: HookActionRunners,
    private readonly log: HookLogger,
  ) {
    this.hooks = definitions.map((definition) => ({ definition, matcher: new Minimatch(definition.matcher, { dot: true }) }));
  }

  async preToolUse(call: ToolCall, _tool: Tool, signal?: AbortSignal): Promise<PreToolUseVerdict> {
    return combineVerdicts(await this.runMatching({ event: 'PreToolUse', tool: { name: call.name }, args: call.args }, signal));
  }

  /** The result is already final: a PostToolUse hook observes it and any decision it replies is ignored. */
  async postToolUse(call: ToolCall, _tool: Tool, result: ToolResult, signal?: AbortSignal): Promise<void> {
    await this.runMatching(
      { event: 'PostToolUse', tool: { name: call.name }, args: call.args, result: { text: resultText(result), isError: result.isError } },
      signal,
    );
  }

  /** Runs the matching hooks at once; their warnings follow declaration order, not the order they finished in. */
  private async runMatching(context: HookEventContext, signal: AbortSignal | undefined): Promise<PreToolUseVerdict[]> {
    const matching = this.hooks.filter(({ definition, matcher }) => definition.event === context.event && matcher.match(context.tool.name));
    const readings = await Promise.all(matching.map(({ definition }) => this.runOne(definition, context, signal)));
    return readings.map((reading, i) => {
      if ('verdict' in reading) return reading.verdict;
      const hook = matching[i].definition;
      this.log.warn(
        `hook ${hook.id} (${hook.event} ${describeAction(hook.action)}) on ${context.tool.name}: ${reading.failure}; going on as if it had not decided`,
      );
      return {};
    });
  }

  private async runOne(hook: HookDefinition, context: HookEventContext, signal: AbortSignal | undefined): Promise<ReplyReading> {
    const timeout = AbortSignal.timeout(hook.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let outcome: ActionOutcome;
    try {
      outcome = await untilAborted(this.runAction(hook.action, context, combined), combined);
    } catch (error) {
      outcome = { failure: safeDescription(error) };
    }
    if ('failure' in outcome && signal?.aborted) return { failure: 'cancelled with the call' };
    if ('failure' in outcome && timeout.aborted) return { failure: `gave no answer within ${hook.timeoutMs} ms` };
    return readReply(outcome);
  }

  private runAction(action: HookAction, context: HookEventContext, signal: AbortSignal): Promise<ActionOutcome> {
    return action.type === 'mcp_tool' ? this.runners.mcp.run(action, context, signal) : this.runners.http.run(action, context, signal);
  }
}

/** Names an action for a warning: the server and tool, or the method and the URL's origin (a path may hold a secret). */
function describeAction(action: HookAction): string {
  return action.type === 'mcp_tool' ? `mcp_tool ${action.server}/${action.tool}` : `http ${action.method} ${action.url.origin}`;
}

/** The action's outcome, or a failure as soon as the signal aborts, even if the action ignores it. */
function untilAborted(work: Promise<ActionOutcome>, signal: AbortSignal): Promise<ActionOutcome> {
  if (signal.aborted) return Promise.resolve({ failure: 'aborted' });
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve({ failure: 'aborted' });
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
