/** One progress notification of a forwarded call, as its server sent it, without the token (ours, not the caller's). */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** One log message of a forwarded call (`notifications/message`), as its server sent it. */
export interface LogMessage {
  readonly level: string;
  readonly data: unknown;
  readonly logger?: string;
}

/**
 * The caller of one forwarded call, as far as the call's answer reaches it (issue 44): it may go away
 * before the answer, and it may have asked for the call's progress.
 */
export interface CallerStream {
  /** Called once if the caller goes away before its call ends (it closed the stream, or cancelled the call). */
  onClose(listener: () => void): void;
  /** Whether the caller cancelled the call (a 2025 caller's `notifications/cancelled`) or closed its stream: its result goes nowhere. */
  readonly cancelled: boolean;
  /** Tells the caller one progress notification of the call; set only when it sent a `progressToken`. */
  readonly progress: ((update: ProgressUpdate) => void) | undefined;
  /** Tells the caller one log message of the call, if it is at or above the caller's level; unset for a caller that wants none. */
  readonly log: ((message: LogMessage) => void) | undefined;
  /** The level the caller asked for, for the server to be asked the same (a 2026-07-28 server's `_meta`); unset when it named none. */
  readonly logLevel: string | undefined;
}
