import { McpMetaKey, missingRequiredClientCapability, RawJson, type RequestId } from '@toolmesh/protocol';
import type { DispatchOutcome } from '@toolmesh/transport-http/server';

import { type InputRequired, missingCapabilities } from '../../call/input-required';
import type { HandlerResult, RequestHandler } from '../handlers/method-handler';
import { errorOutcome, resultOutcome } from '../outcomes';
import type { ModernRequestHandler } from './era-2026';

/** What the 2026 era adds to every result it sends. */
export class ModernResults {
  /** `_meta` of every result: who answered (self-reported, as the revision says). */
  readonly meta: Readonly<Record<string, unknown>>;

  constructor(
    serverInfo: { readonly name: string; readonly version: string; readonly title?: string },
    private readonly cacheTtlMillis: number,
  ) {
    this.meta = { [McpMetaKey.ServerInfo]: serverInfo };
  }

  /** `resultType` and `_meta`, on every modern result. */
  complete(): Record<string, unknown> {
    return { resultType: 'complete', _meta: this.meta };
  }

  /** Plus the cache hints: `public` for what is the same for every caller (the catalogue, unless it is shown per caller). */
  cacheable(cacheScope: 'public' | 'private' = 'public'): Record<string, unknown> {
    return { resultType: 'complete', ttlMs: this.cacheTtlMillis, cacheScope, _meta: this.meta };
  }

  /** For what may differ at each request (a resource's contents): cacheable for no time, and by the caller alone. */
  uncached(): Record<string, unknown> {
    return { resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: this.meta };
  }

  /**
   * A tool service asks for input (MRTR): relayed as an `input_required` result when the client declared
   * what the requests need, else `-32021` naming it (a gateway must not relay requests a client cannot take).
   */
  private inputRequired(id: RequestId, input: InputRequired, declared: Readonly<Record<string, unknown>>): DispatchOutcome {
    const missing = missingCapabilities(input, declared);
    if (Object.keys(missing).length > 0) return errorOutcome(missingRequiredClientCapability(id, missing), 400);
    return resultOutcome(id, { resultType: 'input_required', ...input, _meta: this.meta });
  }

  /** A handler shared with the 2025 era (built with the modern errors): its result gets `members`. */
  adapt(handler: RequestHandler, members: () => Record<string, unknown>): ModernRequestHandler {
    return async (params, context, id, envelope) =>
      this.answer(id, await handler(params, context, id), envelope.clientCapabilities, members);
  }

  /** A handler's outcome as the 2026 era answers it, its result with `members`; also the last event of a call's stream. */
  answer(
    id: RequestId,
    outcome: HandlerResult,
    declared: Readonly<Record<string, unknown>>,
    members: () => Record<string, unknown>,
  ): DispatchOutcome {
    if ('inputRequired' in outcome) return this.inputRequired(id, outcome.inputRequired, declared);
    if ('answered' in outcome) return outcome.answered;
    if (!('result' in outcome)) return errorOutcome(outcome);
    const added = members();
    // A tool's own `_meta` is kept beside ours.
    const ownMeta = outcome.result instanceof RawJson ? undefined : (outcome.result as { _meta?: Record<string, unknown> })._meta;
    if (ownMeta !== undefined) added._meta = { ...ownMeta, ...this.meta };
    return resultOutcome(id, outcome.result, added);
  }
}
