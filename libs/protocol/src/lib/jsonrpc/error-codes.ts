import { ProtocolErrorCode } from '@modelcontextprotocol/client';

/**
 * Numeric error codes that cross the wire in JSON-RPC error responses. The standard ones come from the
 * SDK; the server-defined ones (-32000..-32099, JSON-RPC 2.0 §5.1) are this project's and are listed in
 * docs/errors.md. Local, never-on-the-wire failures use string codes in each library's error module.
 */
export const JsonRpcErrorCode = {
  ParseError: ProtocolErrorCode.ParseError,
  InvalidRequest: ProtocolErrorCode.InvalidRequest,
  MethodNotFound: ProtocolErrorCode.MethodNotFound,
  InvalidParams: ProtocolErrorCode.InvalidParams,
  InternalError: ProtocolErrorCode.InternalError,
  /** `tools/call` named a tool that is not in the catalogue, even after one forced refresh (SPEC G13). */
  ToolNotFound: -32001,
  /** The tool catalogue could not be read at all (SPEC G13). */
  RegistryUnavailable: -32003,
} as const;

export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];
