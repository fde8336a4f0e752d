/**
 * The message of a caught value, for a log line or a person: `catch` binds `unknown`, and code and
 * libraries also throw strings or plain objects. An Error gives its message, anything else its text.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
