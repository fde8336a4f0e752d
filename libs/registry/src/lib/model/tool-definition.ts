import type { CompiledSchema, McpHeaderBinding } from '@toolmesh/protocol';

import type { HttpBinding } from './http-binding';

/** The MCP `Tool` as agents see it: the manifest's public fields, untouched. */
export interface PublicTool {
  readonly name: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

/**
 * How a tool is called, chosen once when its source is loaded: the gateway picks the invoker by `kind`,
 * and nothing else tells the kinds apart.
 * - `service`: a manifest's tool service; its call is one POST of the arguments to `endpoint`.
 * - `openapi`: an OpenAPI operation (issue 27); `http` says where each argument goes.
 * - `mcp`: a tool of an MCP server (issue 28); its call is forwarded as MCP `tools/call` of `upstreamTool`,
 *   the tool's name on that server. `requiredCapabilities`, when the server lists the tool only to clients
 *   declaring them (issue 44): a caller is shown it, and may call it, only when it declares them all.
 */
export type ToolTarget =
  | { readonly kind: 'service' }
  | { readonly kind: 'openapi'; readonly http: HttpBinding }
  | { readonly kind: 'mcp'; readonly upstreamTool: string; readonly requiredCapabilities?: readonly string[] };

/** The target of every manifest tool: one object, shared. */
export const SERVICE_TARGET: ToolTarget = Object.freeze({ kind: 'service' });

/** One tool of the catalogue: what agents see plus what only the gateway uses to execute it. */
export interface ToolDefinition {
  readonly name: string;
  readonly publicTool: PublicTool;
  /**
   * Where the call goes, fixed by the source, never by arguments (SPEC G10): the URL a manifest tool's call
   * is POSTed to, an OpenAPI operation's origin and fixed path prefix, or an MCP server's URL.
   */
  readonly endpoint: URL;
  /** What kind of source the tool came from, and what calling it needs besides `endpoint`. */
  readonly target: ToolTarget;
  /** Its OpenAPI operation's `tags`: what a gateway's curated endpoint may select it by (issue 46); none for other sources. */
  readonly tags?: readonly string[];
  /** The `inputSchema`, compiled when the manifest loaded: a tool whose schema cannot be used is refused then. */
  readonly inputValidator: CompiledSchema;
  /** The manifest's `outputSchema`, compiled at load (SPEC G22); results are checked against it. */
  readonly output?: ToolOutput;
  /** Arguments that 2026 clients repeat as `Mcp-Param-*` headers; read when the manifest loaded. */
  readonly mcpHeaders: readonly McpHeaderBinding[];
  /** The manifest's timeout for one call, before the gateway's cap. */
  readonly timeoutMillis?: number;
  /** The manifest's output budget: the most characters of a result's text the gateway passes on (longer is cut, with a notice). */
  readonly maxResultChars?: number;
  /** OAuth scopes a caller's token must grant to see and call the tool, when the gateway authenticates (SPEC G27). */
  readonly requiredScopes?: readonly string[];
  /** The token of the route the tool came from (`RouteConfig.token`): refreshes, Redis keys and status rows are per route. */
  readonly routeToken: string;
  /** A tool that may run long as a task (issue 47): its service answers `202 Accepted` with a status URL. */
  readonly task?: TaskDeclaration;
}

/**
 * A tool whose service may answer `202 Accepted` with a `Location` to poll (issue 47): the manifest's `task`
 * member, an OpenAPI operation's `x-toolmesh-tool.task`.
 */
export interface TaskDeclaration {
  /** MCP's `execution.taskSupport`: a caller may (`optional`) or must (`required`) have the call run as a task. */
  readonly support: 'optional' | 'required';
  /** How the service hears of a cancelled task: `delete` sends DELETE to the status URL; `none` only stops the polling. */
  readonly cancel: 'delete' | 'none';
}

/** The declaration read from a manifest's `task` member or an operation's extension; undefined when it is not one. */
export function readTaskDeclaration(member: unknown): TaskDeclaration | undefined {
  if (typeof member !== 'object' || member === null) return undefined;
  const { support, cancel } = member as { support?: unknown; cancel?: unknown };
  if (support !== 'optional' && support !== 'required') return undefined;
  return { support, cancel: cancel === 'delete' ? 'delete' : 'none' };
}

/** A validated manifest tool whose `inputSchema` is not compiled (nor its header annotations read) yet. */
export type UncompiledTool = Omit<ToolDefinition, 'inputValidator' | 'mcpHeaders' | 'output'>;

/** What a tool's `outputSchema` says about its results. */
export interface ToolOutput {
  readonly validator: CompiledSchema;
  /**
   * 2025 clients take only an object as `structuredContent`: a tool whose schema is not an object's has
   * its value wrapped as `{"result": value}` and its schema to match for them, as the SDK does.
   */
  readonly wrapsForLegacy: boolean;
}

/** The 2025 form of an `outputSchema` whose root is not an object: the SDK's wrapping. */
function legacyOutputSchema(outputSchema: unknown): Record<string, unknown> {
  return { type: 'object', properties: { result: outputSchema }, required: ['result'] };
}

/**
 * A tool as an era's `tools/list` shows it: the manifest's public fields (2026), or for 2025 clients with
 * an `outputSchema` that is not an object's wrapped, as its results are (ToolOutput).
 */
export function publicToolIn(form: 'modern' | 'legacy', tool: ToolDefinition): PublicTool {
  if (form === 'modern' || !tool.output?.wrapsForLegacy) return tool.publicTool;
  return { ...tool.publicTool, outputSchema: legacyOutputSchema(tool.publicTool.outputSchema) };
}

/** A tool the manifest offers that the gateway does not serve, and why; the status endpoint lists it. */
export interface RefusedTool {
  readonly name: string;
  /** A stable code of docs/errors.md (`schema.*`, `registry.mcp_header_invalid`). */
  readonly code: string;
  readonly message: string;
}

/** Manifest fields that reach `tools/list`; everything else (endpoint, timeoutMillis, maxResultChars, _meta) is execution detail. */
export const PUBLIC_TOOL_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons'] as const;
