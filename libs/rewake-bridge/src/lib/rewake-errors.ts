import { CodedError } from '@toolmesh/protocol';
/**
 * Local errors of the rewake bridge, with stable codes listed in docs/errors.md ("rewake-bridge"); a test
 * keeps the two in agreement.
 */
export const RewakeErrorCode = {
  /** A notification-to-event mapping rule is not usable: empty method, bad event type or unknown log level. */
  InvalidRule: 'rewake.invalid_rule',
  /** The resolver's buffer size is not a positive whole number. */
  InvalidBufferSize: 'rewake.invalid_buffer_size',
  /** A wait's timeout is not a whole number of milliseconds from 0 to 2147483647. */
  InvalidTimeout: 'rewake.invalid_timeout',
} as const;

export type RewakeErrorCode = (typeof RewakeErrorCode)[keyof typeof RewakeErrorCode];

export class RewakeError extends CodedError<RewakeErrorCode> {
  override readonly name = 'RewakeError';
}
