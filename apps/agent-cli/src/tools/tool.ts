import { resultPiece, type ToolContent } from './result-content';

/**
 * The one contract every tool of the agent implements, built-in or MCP. Everything above the registry
 * (executor, approval gate, side-effect cap) sees only this, so a remote tool and a local one are
 * indistinguishable there.
 */
export type SideEffectLevel = 'read-only' | 'mutating';

/**
 * Where a tool's side effects come from, for display only (the gate and the cap never read it):
 * `declared` by the agent's own code, a `server-claim` believed under `annotationTrust`, or `assumed`
 * (the worst case, for a server whose claims are ignored); for a tool a toolmesh gateway federates from
 * another MCP server, an `upstream-claim` believed, or `upstream-claim-ignored` (the worst case, since
 * `annotationTrust: read-only` believes the gateway's own tools only).
 */
export type SideEffectBasis = 'declared' | 'server-claim' | 'assumed' | 'upstream-claim' | 'upstream-claim-ignored';

export interface SideEffects {
  readonly level: SideEffectLevel;
  /** Only meaningful for mutating tools: whether the change may destroy data. */
  readonly destructive: boolean;
  readonly basis: SideEffectBasis;
}

export interface ToolResult {
  readonly isError: boolean;
  readonly content: readonly ToolContent[];
  readonly structuredContent?: unknown;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments, as advertised to the model. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly sideEffects: SideEffects;
  /** True while the tool may be neither offered to the model nor called (an MCP tool whose definition changed since approval). */
  readonly withheld?: boolean;
  /**
   * What is wrong with these arguments for this tool's input schema, or undefined. The executor asks before
   * the approval gate, so nobody is asked to approve a call that cannot run; `execute` checks again.
   */
  checkArguments(args: Record<string, unknown>): string | undefined;
  /** Never throws: every failure is an `isError` result. */
  execute(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>;
}

export function errorResult(message: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/**
 * A result as text, one block per line: what a person reads. Media are named with their type and size,
 * resource links keep their URIs, embedded resources their text; a result with only `structuredContent`
 * shows it as JSON.
 */
export function resultText(result: ToolResult): string {
  if (result.content.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return result.content.map((block) => resultPiece(block).text).join('\n');
}
