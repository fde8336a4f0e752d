/**
 * What a hook file declares (docs/agent-cli.md, "Hooks"), after validation: hooks on tool-use events,
 * each with a glob over tool names and one action. Everything here is the operator's configuration.
 */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** A JSON value whose strings may hold `{{...}}` placeholders (read in hook-file-template.ts, rendered in agent/hooks/hook-template.ts). */
export type Template = string | number | boolean | null | readonly Template[] | { readonly [key: string]: Template };

/** Calls a tool of a configured MCP server; found through the client manager at call time. */
export interface McpToolAction {
  readonly type: 'mcp_tool';
  readonly server: string;
  readonly tool: string;
  /** Rendered into the call's arguments; always an object. */
  readonly args: { readonly [key: string]: Template };
}

export const HTTP_METHODS = ['POST', 'PUT', 'PATCH'] as const;

/** Sends the event to an HTTP endpoint. The URL is fixed at load: no argument value ever reaches it. */
export interface HttpAction {
  readonly type: 'http';
  readonly url: URL;
  readonly method: (typeof HTTP_METHODS)[number];
  /** `${ENV}` already expanded; never logged. */
  readonly headers: Readonly<Record<string, string>>;
  /** Rendered into the JSON body; without it the body describes the event (agent/hooks/hook-template.ts). */
  readonly body?: Template;
}

export type HookAction = McpToolAction | HttpAction;

export interface HookDefinition {
  /** `<hook file name>#<index>`: how warnings name the hook. */
  readonly id: string;
  readonly event: HookEvent;
  /** A glob over tool names (`mcp__files__*`, `Write`, `*`). */
  readonly matcher: string;
  readonly action: HookAction;
  readonly timeoutMs: number;
}

export interface HookFile {
  readonly name: string;
  readonly description?: string;
  readonly file: string;
  readonly hooks: readonly HookDefinition[];
}
