import { setImmediate as nextTurn } from 'node:timers/promises';

import {
  invalidRequest,
  type JsonRpcErrorResponse,
  type ParseResult,
  type RequestId,
  serializedByteLength,
  type SerializedResponse,
  serializeErrorResponse,
} from '@toolmesh/protocol';

import type { RequestContext } from './request-context';

/**
 * Where an application serves JSON-RPC batches, and what one may cost. A batch is many requests for the
 * price of one body: unbounded, a 14.6 KB batch of `tools/list` members over a 1,000-tool catalogue took a
 * gateway with a 384 MB heap past its limit (issue 43). The limits' names are the ones the errors give.
 */
export interface BatchPolicy {
  /** Whether this request may be a batch (MCP 2025-03-26 has batches; later revisions removed them). */
  readonly accepts: (context: RequestContext) => boolean;
  /** Most messages in one batch; a longer one is refused whole, with one -32600, before any member runs. */
  readonly maxMembers: number;
  /**
   * Bytes of responses after which each remaining request of the batch is answered with -32600 instead of
   * being run: a batch's answer holds at most this plus the one response that crossed it.
   */
  readonly maxResponseBytes: number;
}

/** One member answered as it would be alone: its response, or undefined (a notification, a client's response). */
export type MemberAnswerer = (member: ParseResult) => Promise<SerializedResponse | undefined>;

/** The one error that refuses a batch of `count` messages, or undefined when the policy allows it. */
export function tooManyMembers(count: number, policy: BatchPolicy): JsonRpcErrorResponse | undefined {
  if (count <= policy.maxMembers) return undefined;
  return invalidRequest(
    null,
    `the batch holds ${count} messages, more than maxBatchMembers (${policy.maxMembers}); send fewer in one batch`,
    { limit: 'maxBatchMembers', maximum: policy.maxMembers },
  );
}

/**
 * The members' responses, in order; undefined when the client hung up meanwhile (nobody is left to answer,
 * so the rest does not run). Members run one at a time with a turn of the event loop between them, so a
 * batch holds no more memory and the loop no longer than its messages sent one after another would, and
 * other requests are served between its members. Once the responses reach `maxResponseBytes`, each
 * remaining request is answered with an error instead of running; notifications and responses still reach
 * the application: they answer nothing, and a response may settle what another request waits for.
 */
export async function answerMembers(
  batch: readonly ParseResult[],
  policy: BatchPolicy,
  context: RequestContext,
  answer: MemberAnswerer,
): Promise<SerializedResponse[] | undefined> {
  const responses: SerializedResponse[] = [];
  let bytes = 0;
  for (const [index, member] of batch.entries()) {
    if (index > 0) await nextTurn();
    if (context.hangUp?.happened) return undefined;
    const id = requestId(member);
    const response = id !== undefined && bytes >= policy.maxResponseBytes ? budgetSpent(id, bytes, policy) : await answer(member);
    if (response === undefined) continue;
    responses.push(response);
    bytes += serializedByteLength(response);
  }
  return responses;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** The responses as one JSON array, in chunks: a pre-serialized result (a `tools/list`) goes out as it is, never copied. */
export function batchResponse(responses: readonly SerializedResponse[]): SerializedResponse {
  const chunks: Buffer[] = [OPEN];
  for (const [index, response] of responses.entries()) {
    if (index > 0) chunks.push(COMMA);
    if (typeof response === 'string') chunks.push(Buffer.from(response));
    else chunks.push(...response);
  }
  chunks.push(CLOSE);
  return chunks;
}

/** The id of a well-formed request, the one kind of member that is answered, or undefined. */
function requestId(member: ParseResult): RequestId | undefined {
  return member.ok && member.value.kind === 'request' ? member.value.message.id : undefined;
}

function budgetSpent(id: RequestId, bytes: number, policy: BatchPolicy): string {
  return serializeErrorResponse(
    invalidRequest(
      id,
      `not run: the batch's responses already take ${bytes} bytes, past maxBatchResponseBytes (${policy.maxResponseBytes}); send this request again in another batch or alone`,
      { limit: 'maxBatchResponseBytes', maximum: policy.maxResponseBytes },
    ),
  );
}
