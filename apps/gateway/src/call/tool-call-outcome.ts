import type { InputRequired } from './input-required';
import type { StateRefusal } from './request-state-seal';
import type { TaskView } from './task-record';
import type { ConsentRequired } from './user-consent';

/**
 * The `CallToolResult` the gateway makes of a tool service's reply (SPEC G13), and of its own refusals: one
 * text block carrying the call's duration and, for a tool with an `outputSchema`, the reply's `data` as
 * `structuredContent` too (G22).
 */
export interface GatewayCallToolResult {
  content: [{ type: 'text'; text: string; _meta: { searchTime: number } }];
  structuredContent?: unknown;
  isError: boolean;
}

/** A manifest tool's reply wraps its result in `{"data": ...}` (docs/manifest-format.md); an OpenAPI operation's is the result itself. */
export type ReplyForm = 'envelope' | 'plain';

/** An MCP server's `CallToolResult`, passed on whole: every content block, `structuredContent`, `isError`, `_meta`. */
export interface ForwardedToolResult {
  readonly content: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** An MCP server's JSON-RPC error about the caller's own request, which the caller gets as the same error. */
export type UpstreamRefusal = { readonly invalidParams: string } | { readonly requiredCapabilities: Record<string, object> };

/**
 * How a `tools/call` ended: one vocabulary from where the call ends (a tool service's reply, an MCP
 * server's answer, the gateway's own refusal) to the era that answers it, whatever the tool's source.
 * - `result`: a result to pass on, the gateway's or an MCP server's;
 * - `input_required`: the tool asks the caller for input first (MRTR), its state sealed;
 * - `refused_upstream`: an MCP server refused what the caller sent, which the caller gets as the same error;
 * - `invalid_request_state`: a retry's `requestState` was refused: not sealed here for this tool, expired,
 *   or brought by another caller or with other arguments (`reason`);
 * - `task`: a long tool's service accepted the call and the caller asked for a task: it is recorded (issue 47);
 * - `consent_required`: the tool acts as its user, who has not consented yet (issue 48): the service was not called.
 */
export type ToolCallOutcome =
  | { readonly kind: 'result'; readonly result: GatewayCallToolResult | ForwardedToolResult }
  | { readonly kind: 'input_required'; readonly input: InputRequired }
  | { readonly kind: 'refused_upstream'; readonly refusal: UpstreamRefusal }
  | { readonly kind: 'invalid_request_state'; readonly reason: StateRefusal }
  | { readonly kind: 'task'; readonly task: TaskView }
  | { readonly kind: 'consent_required'; readonly consent: ConsentRequired };
