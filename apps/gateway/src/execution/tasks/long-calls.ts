import type { ToolDefinition } from '@toolmesh/registry';
import type { HangUpSignal, Logger } from '@toolmesh/transport-http/server';

import type { ReplyForm, ToolCallOutcome } from '../../call/tool-call-outcome';
import type { TaskSettings } from '../../config/task-settings';
import { GatewayErrorCode } from '../../errors/gateway-errors';
import type { AcceptedHeaders, ToolClient } from '../../tool-client/tool-client';
import { toolResult } from '../result-mapper';
import { pollDelay } from './retry-after';
import { readStatusReply } from './status-reply';
import type { StatusHeaders, TaskService } from './task-service';

/** A caller's wish that a long call be a task (the era read it): whose task it is, and the TTL it asked for. */
export interface TaskWish {
  readonly owner: string;
  readonly ttlMillis?: number;
}

/** A tool service's `202 Accepted` to a call of a tool declared long-running, as the invoker hands it on. */
export interface AcceptedCall {
  readonly tool: ToolDefinition;
  readonly form: ReplyForm;
  readonly accepted: AcceptedHeaders | undefined;
  /** The call's own request headers: the polls carry the same identity (and credentials placed in headers). */
  readonly headers: Readonly<Record<string, string>>;
  readonly wish: TaskWish | undefined;
  /** What is left of the call's deadline. */
  readonly timeoutMillis: number;
  readonly hangUp?: HangUpSignal;
}

/** The time kept before a call's deadline for its last read of the job's status. */
const FINAL_READ_MILLIS = 100;

/** Headers of the call that do not belong on a read of its status: the body's type, the call's key, MRTR answers. */
const CALL_ONLY_HEADERS = new Set([
  'content-type',
  'idempotency-key',
  'mcp-input-responses',
  'mcp-request-state',
  'mcp-client-capabilities',
]);

/** The call's headers a status read carries. */
export function statusHeaders(headers: Readonly<Record<string, string>>): StatusHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CALL_ONLY_HEADERS.has(name.toLowerCase())));
}

/**
 * The status URL of an accepted call: its `Location`, resolved against the tool's endpoint, on the same
 * origin (a service cannot point the gateway, with the caller's headers, at another host); else a problem.
 */
function statusUrlOf(tool: ToolDefinition, location: string | undefined): URL | string {
  if (location === undefined || location.trim() === '') return 'its service answered 202 Accepted without a Location to poll';
  if (!URL.canParse(location, tool.endpoint.href)) return 'its service answered 202 Accepted with a Location that is not a URL';
  const url = new URL(location, tool.endpoint);
  if (url.origin !== tool.endpoint.origin)
    return `its service answered 202 Accepted with a Location on another origin (${url.origin}), which the gateway does not poll`;
  return url;
}

/**
 * What becomes of a long tool's `202 Accepted` (issue 47): a task at once for a caller that asked for one
 * (CreateTaskResult), else today's behaviour: the job's status is polled, as its Retry-After asks within
 * `mcp.tasks.poll` bounds, until its reply or the call's deadline, and the reply is the call's result.
 */
export class LongCalls {
  constructor(
    private readonly client: ToolClient,
    private readonly settings: TaskSettings,
    private readonly tasks: TaskService | undefined,
    private readonly logger: Logger,
  ) {}

  /**
   * Whether a call that asks for a task may be sent to its service: refused (an `isError` result) when its
   * caller has `mcp.tasks.maxWorkingPerCaller` tasks still working, or when the task store cannot say. The
   * count is read before the call and the task written after it, so a caller's calls in flight at once may
   * each pass: the cap is overshot by at most those (docs/adr/0028-tasks-any-replica.md, addendum).
   */
  async refusal(tool: ToolDefinition, wish: TaskWish | undefined): Promise<ToolCallOutcome | undefined> {
    if (wish === undefined || this.tasks === undefined) return undefined;
    const cap = this.settings.maxWorkingPerCaller;
    let working: number;
    try {
      working = await this.tasks.working(wish.owner);
    } catch (error) {
      return this.notRecorded(tool, error, 'the gateway could not read its task store, so the tool was not called');
    }
    if (working < cap) return undefined;
    this.logger.warn('task_cap_reached', { tool: tool.name, code: GatewayErrorCode.TasksPerCallerFull, cap });
    return {
      kind: 'result',
      result: toolResult(
        `Tool ${tool.name} was not called: this caller has ${working} tasks still working, the most allowed (mcp.tasks.maxWorkingPerCaller = ${cap}); wait for one to end (tasks/get) or cancel one (tasks/cancel), then call again [${GatewayErrorCode.TasksPerCallerFull}].`,
        true,
        0,
      ),
    };
  }

  async accepted(call: AcceptedCall): Promise<ToolCallOutcome> {
    const { tool } = call;
    const statusUrl = statusUrlOf(tool, call.accepted?.location);
    if (typeof statusUrl === 'string') {
      this.logger.warn('task_accept_invalid', { tool: tool.name, code: GatewayErrorCode.TaskAcceptInvalid });
      return {
        kind: 'result',
        result: toolResult(`Tool ${tool.name} failed: ${statusUrl} [${GatewayErrorCode.TaskAcceptInvalid}].`, true, 0),
      };
    }
    const headers = statusHeaders(call.headers);
    if (call.wish === undefined || this.tasks === undefined) return this.awaitJob(call, statusUrl, headers);
    try {
      const task = await this.tasks.create(
        {
          tool,
          form: call.form,
          statusUrl,
          retryAfter: call.accepted?.retryAfter,
          owner: call.wish.owner,
          requestedTtlMillis: call.wish.ttlMillis,
        },
        headers,
      );
      return { kind: 'task', task };
    } catch (error) {
      return this.notRecorded(tool, error, 'its job was accepted but the gateway could not record the task (its store did not answer)');
    }
  }

  private notRecorded(tool: ToolDefinition, error: unknown, what: string): ToolCallOutcome {
    this.logger.warn('task_not_recorded', { tool: tool.name, code: GatewayErrorCode.TaskStoreUnavailable, reason: (error as Error).name });
    return {
      kind: 'result',
      result: toolResult(`Tool ${tool.name} failed: ${what}; call it again later [${GatewayErrorCode.TaskStoreUnavailable}].`, true, 0),
    };
  }

  /** The job polled within the call's deadline; past it, the call fails as a slow synchronous call does (its job is cancelled where the tool says how). */
  private async awaitJob(call: AcceptedCall, statusUrl: URL, headers: StatusHeaders): Promise<ToolCallOutcome> {
    const { tool, form, hangUp } = call;
    const { poll, statusTimeoutMillis, maxFailedPolls } = this.settings;
    const started = performance.now();
    const until = started + call.timeoutMillis;
    let wait = pollDelay(call.accepted?.retryAfter, Date.now(), poll);
    let unanswered = 0;
    for (;;) {
      if (hangUp?.happened) return { kind: 'result', result: toolResult(`Tool ${tool.name} was cancelled.`, true, 0) };
      const before = until - performance.now();
      if (before <= FINAL_READ_MILLIS) return this.outOfTime(call, statusUrl, headers, Math.round(performance.now() - started));
      // A wait past the deadline is cut short for one last read just before it: the job may be done already.
      await pause(Math.min(wait, before - FINAL_READ_MILLIS), hangUp);
      const left = until - performance.now();
      const reply = await this.client.post({
        endpoint: statusUrl,
        method: 'GET',
        headers,
        timeoutMillis: Math.max(1, Math.min(statusTimeoutMillis, left)),
        hangUp,
      });
      const durationMs = Math.round(performance.now() - started);
      const step = readStatusReply(tool, reply, form, durationMs);
      if (step.kind === 'ended')
        return {
          kind: 'result',
          result:
            'result' in step.end ? step.end.result : toolResult(`Tool ${tool.name} failed: ${step.end.error.message}.`, true, durationMs),
        };
      if (step.kind === 'working') {
        unanswered = 0;
        wait = pollDelay(step.retryAfter, Date.now(), poll);
      } else if (++unanswered >= maxFailedPolls) {
        return {
          kind: 'result',
          result: toolResult(
            `Tool ${tool.name} failed: its status URL gave no answer ${unanswered} times in a row (mcp.tasks.maxFailedPolls): ${step.detail} [${GatewayErrorCode.TaskStatusInvalid}].`,
            true,
            durationMs,
          ),
        };
      } else {
        wait = poll.defaultMillis;
      }
    }
  }

  private outOfTime(call: AcceptedCall, statusUrl: URL, headers: StatusHeaders, durationMs: number): ToolCallOutcome {
    const { tool } = call;
    // Nobody will read this job's outcome: the service is told to stop where the tool declares how.
    if (tool.task?.cancel === 'delete')
      void this.client.post({ endpoint: statusUrl, method: 'DELETE', headers, timeoutMillis: this.settings.statusTimeoutMillis });
    return {
      kind: 'result',
      result: toolResult(
        `Tool ${tool.name} failed: no complete reply within ${call.timeoutMillis} ms (its service runs the call as a job; a client that takes tasks gets a task instead).`,
        true,
        durationMs,
      ),
    };
  }
}

/** Waits `millis`, or less when the caller hangs up. */
function pause(millis: number, hangUp: HangUpSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      hangUp?.offHangUp(done);
      resolve();
    };
    const timer = setTimeout(done, millis);
    hangUp?.onHangUp(done);
  });
}
