import { McpMethod } from '@toolmesh/protocol';

/** SPEC G5: which `MCP-Protocol-Version` values are served, and what a missing header means. */
export interface ProtocolVersionPolicy {
  readonly supportedVersions: readonly string[];
  /**
   * The spec lets servers assume `2025-03-26` when the header is missing; the seed's contract refuses such
   * requests. Unset (the default) refuses; set it to assume that version instead.
   */
  readonly assumeVersionWhenMissing?: string;
}

export type VersionCheck =
  | { ok: true; version?: string }
  | { ok: false; error: 'missing_protocol_version' | 'unsupported_protocol_version'; message: string };

/** `initialize` negotiates the version in its body; every other message must name a supported one. */
export function checkProtocolVersion(method: string | undefined, header: string | undefined, policy: ProtocolVersionPolicy): VersionCheck {
  if (method === McpMethod.Initialize) return { ok: true };
  const version = header ?? policy.assumeVersionWhenMissing;
  if (version === undefined) {
    return {
      ok: false,
      error: 'missing_protocol_version',
      message: 'The MCP-Protocol-Version header is required on every request after initialize; send the version initialize returned.',
    };
  }
  if (!policy.supportedVersions.includes(version)) {
    return {
      ok: false,
      error: 'unsupported_protocol_version',
      message: `MCP-Protocol-Version "${version.slice(0, 32)}" is not supported; use one of the supported versions.`,
    };
  }
  return { ok: true, version };
}
