import { JsonRpcErrorCode } from '@toolmesh/protocol';
import type { ToolOutput } from '@toolmesh/registry';

import type { TaskError } from '../../call/task-record';
import type { GatewayCallToolResult, ReplyForm } from '../../call/tool-call-outcome';
import { GatewayErrorCode } from '../../errors/gateway-errors';
import type { ToolHttpResponse } from '../../tool-client/tool-client';
import { mapToolReply } from '../result-mapper';

/** The most of a service's status message passed on to clients. */
const MAX_STATUS_MESSAGE = 200;

/**
 * What one read of a job's status URL says (docs/gateway.md, "Long calls as tasks"):
 * - `working`: `202 Accepted` again; its Retry-After, and a `statusMessage` from a JSON body if it has one;
 * - `unanswered`: no reply (timeout, refused connection), or a 401: tried again, until `maxFailedPolls` in a row;
 * - `ended`: the job's outcome: any other reply is the tool's reply, mapped as a synchronous call's is
 *   (a non-2xx is an `isError` result), except a status URL that is gone (404, 410), a redirect, or a reply
 *   asking for input, which end the task `failed` with a JSON-RPC error naming what the service did.
 */
export type StatusStep =
  | { readonly kind: 'working'; readonly retryAfter?: string; readonly statusMessage?: string }
  | { readonly kind: 'unanswered'; readonly detail: string }
  | { readonly kind: 'ended'; readonly end: { result: GatewayCallToolResult } | { error: TaskError } };

export function readStatusReply(
  tool: { readonly name: string; readonly output?: ToolOutput },
  reply: ToolHttpResponse,
  form: ReplyForm,
  durationMs: number,
): StatusStep {
  if (reply.kind === 'failure') {
    // A reply too large or too deep is an answer, and a bad one: retrying would fetch it again.
    if (reply.reason === 'reply_too_large' || reply.reason === 'reply_too_deep')
      return failed(`Tool ${tool.name}'s status reply was refused: ${reply.detail}`);
    return { kind: 'unanswered', detail: reply.detail };
  }
  const { status } = reply;
  if (status === 202)
    return {
      kind: 'working',
      ...(reply.accepted?.retryAfter !== undefined && { retryAfter: reply.accepted.retryAfter }),
      ...statusMessage(reply.body),
    };
  // The status URL refused the credentials this read carried (a replica reading it with other headers than
  // the call's): not the job's outcome, so read again, as for no answer.
  if (status === 401) return { kind: 'unanswered', detail: 'the status URL answered HTTP 401 to the credentials this read carried' };
  if (status === 404 || status === 410)
    return failed(`Tool ${tool.name}'s job is gone: its status URL answered HTTP ${status} (the service no longer knows the job)`);
  if (status < 200 || (status >= 300 && status < 400))
    return failed(`Tool ${tool.name}'s status URL answered HTTP ${status}, which is neither 202 (still working) nor the job's reply`);
  const mapped = mapToolReply(tool.name, reply, durationMs, tool.output, form);
  if ('inputRequired' in mapped) return failed(`Tool ${tool.name}'s job asked for input, which a task of a tool service cannot relay`);
  return { kind: 'ended', end: { result: mapped } };
}

function failed(message: string): StatusStep {
  return {
    kind: 'ended',
    end: { error: { code: JsonRpcErrorCode.InternalError, message: `${message} [${GatewayErrorCode.TaskStatusInvalid}]` } },
  };
}

/** A `{"statusMessage": "..."}` of a 202's JSON body, printable and short; anything else is no message. */
function statusMessage(body: string): { statusMessage?: string } {
  if (body === '' || body.length > 64 * 1024) return {};
  try {
    const parsed = JSON.parse(body) as { statusMessage?: unknown };
    const message = typeof parsed === 'object' && parsed !== null ? parsed.statusMessage : undefined;
    if (typeof message !== 'string' || message === '') return {};
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    return { statusMessage: message.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, MAX_STATUS_MESSAGE) };
  } catch {
    return {};
  }
}
