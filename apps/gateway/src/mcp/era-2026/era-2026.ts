import { invalidParams, methodNotFound, type ParsedMessage, type RequestId, unsupportedProtocolVersion } from '@toolmesh/protocol';
import type { DispatchOutcome, RequestContext } from '@toolmesh/transport-http/server';

import { errorOutcome } from '../outcomes';
import type { ProtocolEra } from '../protocol-era';
import { readEnvelope, type RequestEnvelope } from './envelope';
import { checkStandardHeaders } from './standard-headers';

export interface Era2026Settings {
  /** The modern versions served (from `mcp.protocol.supportedVersions`). */
  readonly servedVersions: readonly string[];
  /** Every version served, modern first: what a `-32022` offers. */
  readonly allSupported: readonly string[];
}

/** A modern method: handlers get the checked envelope besides what the 2025 ones get. */
export type ModernRequestHandler = (
  params: Record<string, unknown>,
  context: RequestContext,
  id: RequestId,
  envelope: RequestEnvelope,
) => Promise<DispatchOutcome>;

/**
 * The stateless 2026-07-28 revision (SPEC G25): no initialize and no session; every request carries its
 * version and the client's capabilities in `_meta`, repeats its method (and name) in headers, and is
 * answered on its own. Protocol refusals carry the statuses the revision gives them: 400 for `_meta`,
 * header and version problems, 404 for a method not served; handler errors stay in-band (200).
 */
export class Era2026 implements ProtocolEra {
  readonly name = '2026-07-28';

  constructor(
    private readonly methods: ReadonlyMap<string, ModernRequestHandler>,
    private readonly settings: Era2026Settings,
  ) {}

  async dispatch(message: ParsedMessage, context: RequestContext): Promise<DispatchOutcome | undefined> {
    // Notifications are acknowledged and forgotten (a stdio cancel has no meaning over HTTP, where
    // closing the response is the cancel); client responses have nothing to answer.
    if (message.kind !== 'request') return undefined;
    const { id, method } = message.message;
    const params = (message.message.params ?? {}) as Record<string, unknown>;
    const envelope = readEnvelope(params);
    if (!envelope.ok) return errorOutcome(invalidParams(id, envelope.problem), 400);
    const { protocolVersion } = envelope.envelope;
    const mismatch = checkStandardHeaders(id, method, params, protocolVersion, context);
    if (mismatch) return errorOutcome(mismatch, 400);
    if (!this.settings.servedVersions.includes(protocolVersion)) {
      return errorOutcome(unsupportedProtocolVersion(id, protocolVersion, this.settings.allSupported), 400);
    }
    const handler = this.methods.get(method);
    if (!handler) return errorOutcome(methodNotFound(id, method), 404);
    return handler(params, context, id, envelope.envelope);
  }
}
