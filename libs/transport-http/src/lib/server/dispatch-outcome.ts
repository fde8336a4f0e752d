import type { ParsedMessage, SerializedResponse } from '@toolmesh/protocol';

import type { EventStream } from './event-stream';
import type { RequestContext } from './request-context';

/** One JSON answer: the era chooses its HTTP status (a 2026 `-32601` is 404, its `-32022` 400, ...). */
export interface JsonOutcome {
  readonly status: number;
  readonly json: SerializedResponse;
  readonly isError: boolean;
  /** Extra response headers, e.g. the 2025 era's `Mcp-Session-Id` on initialize. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A long-lived Server-Sent Events answer (a 2026 listen stream, the 2025 GET stream). The front writes the
 * SSE headers, then hands the open stream to `open`, which owns it until it ends or the client leaves.
 */
export interface StreamOutcome {
  readonly open: (stream: EventStream) => void;
}

/** What the application answers: JSON, a stream, or `undefined` for an accepted notification (202). */
export type DispatchOutcome = JsonOutcome | StreamOutcome;

export function isStreamOutcome(outcome: DispatchOutcome): outcome is StreamOutcome {
  return 'open' in outcome;
}

/**
 * The application behind the endpoint. Requests must resolve to an outcome; notifications and responses
 * from the client resolve to `undefined` (the endpoint answers 202). A rejection becomes -32603.
 */
export type McpDispatcher = (message: ParsedMessage, context: RequestContext) => Promise<DispatchOutcome | undefined>;

/** The application's answer to a GET on the endpoint (the 2025 era's notification stream), or a JSON refusal. */
export type McpGetHandler = (context: RequestContext) => DispatchOutcome;
