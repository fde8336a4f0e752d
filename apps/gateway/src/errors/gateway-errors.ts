import { CodedError } from '@toolmesh/protocol';
/**
 * Local errors of the gateway itself (the catalogue's are the registry's). Stable string codes, listed in
 * docs/errors.md ("gateway"); a test keeps the two in agreement. None of them reaches an MCP client: the
 * gateway refuses to start and prints the message, which names the setting to fix.
 */
export const GatewayErrorCode = {
  /** The configuration file cannot be read or is invalid, or an environment variable is. */
  ConfigInvalid: 'gateway.config_invalid',
} as const;

export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

export class GatewayError extends CodedError<GatewayErrorCode> {
  override readonly name = 'GatewayError';
}
