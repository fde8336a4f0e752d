import { ANNOTATIONS_CLAIM_META_KEY, type AnnotationsClaim, printableName } from '@toolmesh/protocol';

import { RegistryErrorCode } from '../errors';
import { PUBLIC_TOOL_FIELDS, type RefusedTool } from '../model/tool-definition';

/** What the manifest schema allows as a tool name; an MCP server's names may be anything. */
const MANIFEST_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface ConvertedMcpTools {
  /** A manifest of the server's tools: names with the route's prefix, each with the server's URL as its endpoint. */
  readonly manifest: { tools: Array<Record<string, unknown>> };
  /** Each tool's name on the server, by its name in the catalogue. */
  readonly upstreamNames: ReadonlyMap<string, string>;
  /**
   * Each tool's `_meta` for `tools/list`, by its name in the catalogue: the server's, with the marker that
   * says its annotations are the server's claims. Not in the manifest, whose `_meta` is execution detail
   * (an endpoint, a timeout) that a server must not set.
   */
  readonly publicMeta: ReadonlyMap<string, Record<string, unknown>>;
  /** Tools the gateway cannot serve, each on its own: the rest of the server's tools are served. */
  readonly refused: readonly RefusedTool[];
  /** The client capabilities a tool needs, by its name in the catalogue: only for tools that need some. */
  readonly requiredCapabilities: ReadonlyMap<string, readonly string[]>;
}

/**
 * An MCP server's `tools/list` (`{ tools }`, issue 28) as a manifest, for the manifest's own rules to
 * check. Names get the route's `namePrefix` in front (an MCP server's names are its own, and two servers
 * may both have an `echo`); the public fields pass as they are, annotations included, which the tool's
 * `_meta` marks as the server's claims (the bundle's name under ANNOTATIONS_CLAIM_META_KEY), so that a
 * client tells them from a manifest's. A tool whose name, once prefixed, is not a manifest tool name, or
 * whose `inputSchema` is not an object's, is refused alone.
 */
export function convertMcpTools(
  document: unknown,
  serverUrl: string,
  bundle: string,
  namePrefix = '',
): ConvertedMcpTools | { problem: string } {
  const tools = (document as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return { problem: 'the tools/list result has no "tools" array' };
  const needed = readRequiredCapabilities((document as { requiredCapabilities?: unknown }).requiredCapabilities);
  if (typeof needed === 'string') return { problem: needed };
  const requiredCapabilities = new Map<string, readonly string[]>();
  const converted: Array<Record<string, unknown>> = [];
  const upstreamNames = new Map<string, string>();
  const publicMeta = new Map<string, Record<string, unknown>>();
  const claim: AnnotationsClaim = { claimedBy: 'mcp-server', bundle };
  const refused: RefusedTool[] = [];
  for (const tool of tools as unknown[]) {
    const upstream = typeof tool === 'object' && tool !== null ? (tool as Record<string, unknown>) : {};
    const problem = toolProblem(upstream, namePrefix);
    if (problem !== undefined) {
      const name = typeof upstream.name === 'string' ? printableName(`${namePrefix}${upstream.name}`) : '(unnamed)';
      refused.push({ name, code: RegistryErrorCode.UpstreamToolRefused, message: problem });
      continue;
    }
    const name = `${namePrefix}${upstream.name as string}`;
    const manifestTool: Record<string, unknown> = { endpoint: serverUrl };
    for (const field of PUBLIC_TOOL_FIELDS) if (upstream[field] !== undefined) manifestTool[field] = upstream[field];
    manifestTool.name = name;
    // A tool the server runs as a task when asked (its `execution.taskSupport`): the gateway relays such calls (issue 47).
    const taskSupport = (upstream.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
    if (taskSupport === 'optional' || taskSupport === 'required') manifestTool.task = { support: taskSupport };
    converted.push(manifestTool);
    upstreamNames.set(name, upstream.name as string);
    publicMeta.set(name, { ...metaOf(upstream), [ANNOTATIONS_CLAIM_META_KEY]: claim });
    const capabilities = needed[upstream.name as string];
    if (capabilities !== undefined && capabilities.length > 0) requiredCapabilities.set(name, capabilities);
  }
  return { manifest: { tools: converted }, upstreamNames, publicMeta, refused, requiredCapabilities };
}

/** The listing's `requiredCapabilities` (McpToolListing): by the server's tool name, capability names. */
function readRequiredCapabilities(value: unknown): Readonly<Record<string, readonly string[]>> | string {
  if (value === undefined) return {};
  const problem = '"requiredCapabilities" must map tool names to arrays of capability names';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return problem;
  const entries = Object.values(value as Record<string, unknown>);
  const valid = entries.every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string'));
  return valid ? (value as Record<string, readonly string[]>) : problem;
}

function toolProblem(tool: Record<string, unknown>, namePrefix: string): string | undefined {
  if (typeof tool.name !== 'string') return 'the MCP server listed a tool without a name';
  if (!MANIFEST_TOOL_NAME.test(`${namePrefix}${tool.name}`))
    return "its name (with the bundle's namePrefix) is not 1-128 of the characters A-Z a-z 0-9 _ . -";
  const schema = tool.inputSchema as { type?: unknown } | null | undefined;
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') return 'its inputSchema is not an object schema';
  return undefined;
}

/**
 * The server's own `_meta` of a tool, when it is an object: its keys stay, but the marker is set over any
 * the server gave, so that what a server puts under our key (another gateway's marker included) never
 * stands for this gateway's word about the tool.
 */
function metaOf(tool: Record<string, unknown>): Record<string, unknown> {
  const meta = tool._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
}
