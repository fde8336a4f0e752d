import { invalidRequest, type JsonRpcErrorResponse, McpHttpHeader, type RequestId, unsupportedProtocolVersion } from '@toolmesh/protocol';

/** SPEC G5: which `MCP-Protocol-Version` values the 2025 era serves, and what a missing header means. */
export interface LegacyVersionPolicy {
  /** The 2025 versions served; a refusal lists `allSupported` (2026 ones first), so a client can pick any. */
  readonly supportedVersions: readonly string[];
  readonly allSupported: readonly string[];
  /** What a request without the header is taken to be (`assumedVersion`); none: it is refused. */
  readonly assumeVersionWhenMissing?: string;
}

/** The revision before the header existed: a client that sends none may well be speaking it. */
const HEADERLESS_VERSION = '2025-03-26';

/**
 * What a 2025 request without `MCP-Protocol-Version` is taken to be: the configured version, else
 * `2025-03-26` when it is served, as every revision since 2025-06-18 says a server SHOULD assume (the
 * seed refused such requests; the specification wins, docs/gateway.md). So a genuine 2025-03-26 client,
 * which never sends the header, is served, batches included. With that version not served, refused.
 */
export function assumedVersion(configured: string | undefined, supportedVersions: readonly string[]): string | undefined {
  return configured ?? (supportedVersions.includes(HEADERLESS_VERSION) ? HEADERLESS_VERSION : undefined);
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
