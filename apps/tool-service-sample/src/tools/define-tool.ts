import { SchemaCompiler } from '@toolmesh/protocol';

import { errorReply, type Reply } from '../http/reply';

/** The JSON Schema of a tool's arguments object, as published in the manifest. */
export interface InputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, object>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
  /** Any other JSON Schema 2020-12 keyword ($schema, $defs, allOf, if/then/else, ...). */
  readonly [keyword: string]: unknown;
}

/** MCP tool annotations (hints for clients; they are passed through the gateway unchanged). */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** Everything about one tool in one place: what the manifest publishes and how a call is answered. */
export interface ToolSpec<Args> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: InputSchema;
  readonly annotations: ToolAnnotations;
  readonly timeoutMillis: number;
  /** A tool that answers `202 Accepted` with a job to poll (issue 47): the manifest's `task` member. */
  readonly task?: { readonly support: 'optional' | 'required'; readonly cancel?: 'delete' | 'none' };
  /**
   * Called with arguments already valid against inputSchema; `signal` aborts when the caller goes away;
   * `input` is what the gateway tells of the client's side of MRTR.
   */
  handle(args: Args, signal: AbortSignal, input: CallInput): Reply | Promise<Reply>;
}

/** What the gateway tells a tool of the client's side of MRTR (docs/manifest-format.md, "The call"). */
export interface CallInput {
  /** A retried call's answers to the input it asked for (`mcp-input-responses`, decoded). */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The state this service issued with the request for input, back byte for byte (`mcp-request-state`, decoded). */
  readonly requestState?: string;
  /** The input capabilities a 2026 client declared (`mcp-client-capabilities`); undefined for a 2025 client. */
  readonly clientCapabilities?: readonly string[];
}

/** A tool with its argument type erased, so that tools of different argument types share one list. */
export interface Tool extends Omit<ToolSpec<unknown>, 'handle'> {
  call(args: unknown, signal: AbortSignal, input: CallInput): Promise<Reply>;
}

// The gateway validates too, but the service must not trust its callers. Strict: the schemas are ours, and
// a typo in one must fail at start, not pass as an annotation.
const schemas = new SchemaCompiler({ strict: true });

/**
 * Turns a spec into a Tool whose `call` validates the arguments against the published schema before the
 * handler sees them: the schema is the single source of truth for both the manifest and the checks.
 */
export function defineTool<Args>(spec: ToolSpec<Args>): Tool {
  const inputValidator = schemas.compile(spec.inputSchema);
  const { handle, ...published } = spec;
  return {
    ...published,
    call: async (args, signal, input) => {
      const check = inputValidator.check(args, 'arguments');
      // Valid by the schema the Args type mirrors.
      return check.ok ? handle(args as Args, signal, input) : errorReply(400, `invalid arguments: ${check.problems.join('; ')}`);
    },
  };
}

/** The input schema of a tool that takes no arguments. */
export const NO_ARGUMENTS: InputSchema = { type: 'object', properties: {}, additionalProperties: false };

/** Every tool of this sample only reads bundled data or simulates a reply: nothing changes, nothing leaves the process. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const DEFAULT_TIMEOUT_MILLIS = 3000;
