import { connectKeyValueStore } from '@toolmesh/registry';
import type { Logger } from '@toolmesh/transport-http/server';

import type { AuditTrail } from '../audit/audit-trail';
import type { ServiceCredentials } from '../call/service-credentials';
import type { GatewayConfig } from '../config/gateway-config';
import { MemoryApprovalStore } from '../definitions/approval-store';
import { readPinFile } from '../definitions/pin-file';
import { PinnedDefinitions } from '../definitions/pinned-definitions';
import { RedisApprovalStore } from '../definitions/redis-approval-store';

export interface DefinitionPinParts {
  readonly definitions: PinnedDefinitions;
  /** The approval endpoint's token, read at each approval (a mounted file may be rotated); undefined: none configured. */
  readonly approvalToken: () => string | undefined;
  /** Closes the approvals' Redis connection, when there is one. */
  close(): void;
}

/**
 * Pinned tool definitions (issue 46): the pin file read now (a bad one stops the start,
 * `gateway.pin_file_invalid`), the approvals kept in Redis when `mcp.redis.url` is set and some bundle is
 * reviewed, else in memory (ADR 0029), each definition that is not approved
 * also a notice of the audit trail when it is on (`stage: "definition"`: a held one denied, a warned one allowed).
 */
export function buildDefinitionPins(
  mcp: GatewayConfig['mcp'],
  credentials: ServiceCredentials,
  logger: Logger,
  audit: () => Pick<AuditTrail, 'notice'> | undefined,
): DefinitionPinParts {
  const { pinFile, approvalToken } = mcp.definitionPins ?? {};
  const { redis } = mcp;
  const reviewed = mcp.bundles.some((bundle) => (bundle.definitionChanges ?? 'accept') !== 'accept');
  const shared =
    reviewed && redis.url !== undefined
      ? new RedisApprovalStore(
          connectKeyValueStore({
            url: redis.url,
            connectTimeoutMillis: redis.commandTimeoutMillis * 5,
            commandTimeoutMillis: redis.commandTimeoutMillis,
          }),
          redis.keyPrefix,
        )
      : undefined;
  const definitions = new PinnedDefinitions(mcp.bundles, {
    store: shared ?? new MemoryApprovalStore(),
    ...(pinFile !== undefined && { pins: readPinFile(pinFile, mcp.bundles) }),
    logger,
    notice: ({ bundle, tool, state }) =>
      audit()?.notice({
        bundle,
        tool,
        decision: { stage: 'definition', outcome: state.endsWith('-held') ? 'deny' : 'allow', reason: state },
      }),
  });
  return {
    definitions,
    approvalToken: () => (approvalToken === undefined ? undefined : credentials.read(approvalToken)),
    close: () => shared?.close(),
  };
}
