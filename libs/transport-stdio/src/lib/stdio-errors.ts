import { CodedError } from '@toolmesh/protocol';
/**
 * Local errors of the stdio transport: failures that never cross the wire. The codes are stable strings,
 * listed in docs/errors.md ("transport-stdio"); a test keeps the two in agreement.
 */
export const StdioErrorCode = {
  /** The server's command could not be started (not found, not executable, bad cwd). */
  SpawnFailed: 'stdio.spawn_failed',
  /** `send` was called before `start` or after the channel closed. */
  NotConnected: 'stdio.not_connected',
  /** The server process ended on its own; the message carries its exit code or signal. */
  ProcessExited: 'stdio.process_exited',
  /** An inbound line exceeded the configured maximum message size and was dropped. */
  MessageTooLarge: 'stdio.message_too_large',
  /** An inbound line nested deeper than 256 levels (the JSON-RPC parser's limit) and was dropped unparsed. */
  MessageTooDeep: 'stdio.message_too_deep',
  /** An inbound line was not one valid JSON-RPC message and was dropped. */
  MalformedMessage: 'stdio.malformed_message',
} as const;

export type StdioErrorCode = (typeof StdioErrorCode)[keyof typeof StdioErrorCode];

export class StdioTransportError extends CodedError<StdioErrorCode> {
  override readonly name = 'StdioTransportError';
}
