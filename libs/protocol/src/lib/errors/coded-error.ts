/**
 * The base of every library's local error: a failure that never crosses the wire, with a stable string
 * `code` (listed in docs/errors.md) for scripts and tests to match on, and a message for people. Each
 * library keeps its codes in one module and subclasses this once, for its own `name`.
 */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
