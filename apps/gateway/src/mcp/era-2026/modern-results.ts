import { jsonRpcError, JsonRpcErrorCode, McpMetaKey, RawJson, type JsonRpcErrorResponse } from '@toolmesh/protocol';
import type { RequestHandler } from '../handlers/method-handler';
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

  /** Plus the cache hints: the catalogue is the same for every caller, so `public`. */
  cacheable(): Record<string, unknown> {
    return { resultType: 'complete', ttlMs: this.cacheTtlMillis, cacheScope: 'public', _meta: this.meta };
  }

  /** A handler shared with the 2025 era: its result gets `members`, its errors the modern codes. */
  adapt(handler: RequestHandler, members: () => Record<string, unknown>): ModernRequestHandler {
    return async (params, context, id) => {
      const outcome = await handler(params, context, id);
      if (!('result' in outcome)) return errorOutcome(modernError(outcome));
      const added = members();
      // A tool's own `_meta` is kept beside ours.
      const ownMeta = outcome.result instanceof RawJson ? undefined : (outcome.result as { _meta?: Record<string, unknown> })._meta;
      if (ownMeta !== undefined) added._meta = { ...ownMeta, ...this.meta };
      return resultOutcome(id, outcome.result, added);
    };
  }
}

/**
 * 2026-07-28 reserves the -32000 range it does not define: an unknown tool is `-32602` as the revision
 * says, a catalogue that cannot be read is an internal error.
 */
function modernError(error: JsonRpcErrorResponse): JsonRpcErrorResponse {
  switch (error.error.code) {
    case JsonRpcErrorCode.ToolNotFound:
      return jsonRpcError(error.id, JsonRpcErrorCode.InvalidParams, error.error.message);
    case JsonRpcErrorCode.RegistryUnavailable:
      return jsonRpcError(error.id, JsonRpcErrorCode.InternalError, error.error.message);
    default:
      return error;
  }
}
