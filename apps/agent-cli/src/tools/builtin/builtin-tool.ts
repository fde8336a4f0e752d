import path from 'node:path';

import { type CompiledSchema, errorMessage, SchemaCompiler } from '@toolmesh/protocol';

import { AgentErrorCode } from '../../errors/agent-errors';
import { errorResult, type SideEffects, type Tool, type ToolResult } from '../tool';
import { Workspace } from './workspace';

// The built-in schemas are ours and fixed for the life of the process: strict, so a typo in one fails its test.
const builtinSchemas = new SchemaCompiler({ strict: true });

/**
 * What every built-in tool is given: the folder that relative paths (and Bash) start from, and the
 * workspace the file tools keep to (default: the working directory alone, nothing sealed).
 */
export interface BuiltinToolContext {
  readonly workingDirectory: string;
  readonly workspace?: Workspace;
}

/**
 * The common shape of a built-in tool: its arguments are checked against its own (closed) input schema
 * before `run`, and anything `run` throws becomes an error result, so `execute` never throws.
 */
export abstract class BuiltinTool<Args> implements Tool {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly inputSchema: Readonly<Record<string, unknown>>;
  abstract readonly sideEffects: SideEffects;
  private validator: CompiledSchema | undefined;
  private readonly workspace: Workspace;

  constructor(protected readonly context: BuiltinToolContext) {
    this.workspace = context.workspace ?? new Workspace([context.workingDirectory], []);
  }

  /**
   * Whether the tool may reach past the workspace whatever its arguments say (Bash runs any command,
   * network included): MCP's `openWorldHint`. The file tools cannot: `execute` keeps them inside.
   */
  readonly openWorld: boolean = false;

  checkArguments(args: Record<string, unknown>): string | undefined {
    const check = (this.validator ??= builtinSchemas.compile(this.inputSchema)).check(args, 'arguments');
    return check.ok ? undefined : check.problems.join('; ');
  }

  async execute(args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const problem = this.checkArguments(args);
    if (problem) return errorResult(`invalid arguments for ${this.name}: ${problem}`);
    // Checked here, below every gate, so that no flag, hook or answer lets a call out: a host that
    // approves a read-only Read without asking (serve) must be right that it reads only the workspace.
    const paths = this.pathsOf(args as Args).map((file) => this.resolve(file));
    const reaches = paths.map((absolute) => this.workspace.reachOf(absolute));
    if (reaches.includes('sealed'))
      return errorResult(
        `${this.name} refused: the path is in the agent CLI's own configuration and credentials, which no tool may read or change`,
      );
    const outside = paths.find((_, i) => reaches[i] === 'outside');
    if (outside !== undefined)
      return errorResult(
        `${this.name} refused: ${outside} is outside the workspace (the working directory and workspaceRoots, links resolved); ` +
          `add its folder to workspaceRoots in the configuration, or start the CLI in a folder that holds it (--workspace <folder>) ` +
          `[${AgentErrorCode.OutsideWorkspace}]`,
      );
    try {
      return await this.run(args as Args, signal);
    } catch (error) {
      return errorResult(`${this.name} failed: ${errorMessage(error)}`);
    }
  }

  protected abstract run(args: Args, signal?: AbortSignal): Promise<ToolResult>;

  /** The paths a call names (absolute or relative to the working directory); none for a tool that takes none. */
  protected pathsOf(_args: Args): readonly string[] {
    return [];
  }

  /** Whether a file or folder met on a walk leads out of the workspace or into a sealed folder: Glob and Grep leave it out. */
  protected isOffLimits(absolute: string): boolean {
    return this.workspace.reachOf(absolute) !== 'inside';
  }

  /** An argument path, resolved against the working directory. */
  protected resolve(file: string): string {
    return path.resolve(this.context.workingDirectory, file);
  }

  /** How a path is shown: relative to the working directory when inside it, else absolute; `/` separators. */
  protected display(absolute: string): string {
    const relative = path.relative(this.context.workingDirectory, absolute);
    if (relative === '') return '.';
    if (relative.startsWith('..') || path.isAbsolute(relative)) return absolute;
    return relative.split(path.sep).join('/');
  }
}

export function textResult(text: string, structuredContent?: unknown): ToolResult {
  return { isError: false, content: [{ type: 'text', text }], ...(structuredContent === undefined ? {} : { structuredContent }) };
}

/** A file-system error as a sentence about the path, for the common codes; the raw message otherwise. */
export function fileErrorResult(error: unknown, shown: string): ToolResult {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return errorResult(`${shown}: no such file or directory`);
    case 'EISDIR':
      return errorResult(`${shown} is a directory, not a file`);
    case 'ENOTDIR':
      return errorResult(`${shown}: a part of the path is not a directory`);
    case 'EACCES':
    case 'EPERM':
      return errorResult(`${shown}: permission denied`);
    default:
      return errorResult(`${shown}: ${errorMessage(error)}`);
  }
}

/** A NUL byte in the first 8 KiB: the heuristic git and grep use for "binary". */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8192).includes(0);
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character. */
export function cutToBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, cut: false };
  let end = maxBytes;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), cut: true };
}
