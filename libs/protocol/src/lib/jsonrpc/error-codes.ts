import { ProtocolErrorCode } from '@modelcontextprotocol/client';

/**
 * Numeric error codes that cross the wire in JSON-RPC error responses. The standard ones and the
 * 2026-07-28 ones (-32020..-32022) come from the MCP specification; -32001 and -32003 are this project's
 * (the 2025 era only) and are listed in docs/errors.md. Local, never-on-the-wire failures use string codes in each library's error module.
 */
export const JsonRpcErrorCode = {
  ParseError: ProtocolErrorCode.ParseError,
  InvalidRequest: ProtocolErrorCode.InvalidRequest,
  MethodNotFound: ProtocolErrorCode.MethodNotFound,
  InvalidParams: ProtocolErrorCode.InvalidParams,
  InternalError: ProtocolErrorCode.InternalError,
  /** 2026-07-28: an `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*` header is missing, invalid or differs from the body. The SDK has no constant for it yet. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability its `_meta` did not declare; `data.requiredCapabilities`. */
  MissingRequiredClientCapability: ProtocolErrorCode.MissingRequiredClientCapability,
  /** 2026-07-28: the protocol version named is not served; `data.supported` and `data.requested`. */
  UnsupportedProtocolVersion: ProtocolErrorCode.UnsupportedProtocolVersion,
  /** 2025-11-25: the request waits for URL-mode elicitations to complete first; `data.elicitations`. 2026-07-28 forbids it (a URL-mode input request instead). */
  UrlElicitationRequired: ProtocolErrorCode.UrlElicitationRequired,
  /** The 2025 revisions' code for a `resources/read` of a resource the server does not have; 2026-07-28 says -32602 instead and forbids this one. */
  ResourceNotFound: -32002,
  /** `tools/call` named a tool that is not in the catalogue, even after one forced refresh (SPEC G13). */
  ToolNotFound: -32001,
  /** The tool catalogue could not be read at all (SPEC G13). */
  RegistryUnavailable: -32003,
  /** A `tools/call` over a rate limit of the gateway (SPEC G27), answered with HTTP 429 and `Retry-After`. */
  RateLimited: -32004,
} as const;

export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];
