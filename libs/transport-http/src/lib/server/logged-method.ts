import { McpMethod, McpNotification } from '@toolmesh/protocol';

/**
 * A JSON-RPC method as the boundary logs name it. The method is the client's text, of any length and any
 * characters: a method MCP defines is logged as it is, any other as `(unknown)` with its length only, so
 * a client can neither grow the log by what it sends nor write into it (SPEC G26).
 */
export interface LoggedMethod {
  readonly name: string | undefined;
  readonly length: number | undefined;
}

// One object per known method, made once: the lookup runs for every request (the hot path).
const KNOWN_METHODS: ReadonlyMap<string, LoggedMethod> = new Map(
  [...Object.values(McpMethod), ...Object.values(McpNotification)].map((method): [string, LoggedMethod] => [
    method,
    { name: method, length: undefined },
  ]),
);

/** A JSON-RPC batch (MCP 2025-03-26): its messages have their methods each. */
export const BATCH: LoggedMethod = { name: '(batch)', length: undefined };

/** No method: the body did not parse, or was a response. */
export const NO_METHOD: LoggedMethod = { name: undefined, length: undefined };

export function loggedMethod(method: string): LoggedMethod {
  return KNOWN_METHODS.get(method) ?? { name: '(unknown)', length: method.length };
}
