import { invalidRequest, type JsonRpcErrorResponse, McpHttpHeader, type RequestId, unsupportedProtocolVersion } from '@toolmesh/protocol';

/** SPEC G5: which `MCP-Protocol-Version` values the 2025 era serves, and what a missing header means. */
export interface LegacyVersionPolicy {
  /** The 2025 versions served; a refusal lists `allSupported` (2026 ones first), so a client can pick any. */
  readonly supportedVersions: readonly string[];
  readonly allSupported: readonly string[];
  /**
   * The spec lets servers assume `2025-03-26` when the header is missing; the seed's contract refuses such
   * requests. Unset (the default) refuses; set it to assume that version instead.
   */
  readonly assumeVersionWhenMissing?: string;
}

/**
 * Every 2025 message after `initialize` names a served version in `MCP-Protocol-Version` (initialize
 * negotiates in its body). A refusal is HTTP 400 with a JSON-RPC error that lists what is served.
 */
export function checkLegacyVersion(
  id: RequestId | null,
  header: string | undefined,
  policy: LegacyVersionPolicy,
): JsonRpcErrorResponse | undefined {
  const version = header ?? policy.assumeVersionWhenMissing;
  if (version === undefined) {
    const detail = `the ${McpHttpHeader.ProtocolVersion} header is required on every request after initialize; send the version initialize returned`;
    return invalidRequest(id, detail, { supported: policy.allSupported });
  }
  if (!policy.supportedVersions.includes(version)) return unsupportedProtocolVersion(id, version, policy.allSupported);
  return undefined;
}
