import type { RequestContext } from '@toolmesh/transport-http/server';

import { callerPart } from '../../execution/idempotency-key';

/**
 * The log level each 2025 session set with `logging/setLevel` (issue 44), kept by this replica so that its
 * later calls of MCP servers' tools bring the caller their servers' log messages at or above it. The one
 * thing a 2025 session leaves here: the revisions make the level the session's, and a call names none.
 * Kept under the caller (its verified token, else its employee numbers) and its `Mcp-Session-Id`, random
 * and made by `initialize`, so one caller cannot set another's level; a request without a session id sets
 * nothing. At most `max` sessions: the one set longest ago gives way (its calls then get every message the
 * server sends, as a session that never set a level does). A session whose calls land on another replica
 * is not known there (docs/gateway.md).
 */
export class SessionLogLevels {
  /** In the order set: a Map iterates in insertion order, so the first key is the oldest. */
  private readonly levels = new Map<string, string>();

  constructor(private readonly max: number) {}

  set(context: RequestContext, level: string): void {
    const key = keyOf(context);
    if (key === undefined) return;
    this.levels.delete(key);
    this.levels.set(key, level);
    if (this.levels.size > this.max) this.levels.delete(this.levels.keys().next().value as string);
  }

  /** The level the caller's session set, if it set one here. */
  of(context: RequestContext): string | undefined {
    const key = keyOf(context);
    return key === undefined ? undefined : this.levels.get(key);
  }
}

function keyOf(context: RequestContext): string | undefined {
  return context.sessionId === undefined ? undefined : `${callerPart(context)}\n${context.sessionId}`;
}
