import { SchemaCompiler } from '@toolmesh/protocol';

import manifestSchema from '../../../../../docs/schemas/tool-manifest.schema.json';
import { PUBLIC_TOOL_FIELDS, type PublicTool, readTaskDeclaration, SERVICE_TARGET, type UncompiledTool } from '../model/tool-definition';

/** What the gateway knows about one tool service (a bundle) before reading its manifest. */
export interface BundleTarget {
  readonly name: string;
  /** Base URL that relative tool endpoints are appended to (SPEC G10). */
  readonly serviceDomain: string;
  /** When set, every tool name of this bundle must start with it (SPEC G14). */
  readonly namePrefix?: string;
}

export interface ValidatedManifest {
  readonly revision?: string;
  /** Their schemas are compiled by the route snapshot (compile-tool-schemas.ts), which may refuse some. */
  readonly tools: readonly UncompiledTool[];
}

export type ManifestValidation = { ok: true; manifest: ValidatedManifest } | { ok: false; problems: string[] };

const MAX_PROBLEMS = 20;
const manifestDocument = new SchemaCompiler({ maxProblems: MAX_PROBLEMS }).compile(manifestSchema);

interface ManifestTool {
  name: string;
  inputSchema: Record<string, unknown>;
  endpoint?: string;
  timeoutMillis?: number;
  maxResultChars?: number;
  requiredScopes?: string[];
  _meta?: { endpoint?: string; timeoutMillis?: number };
  [field: string]: unknown;
}

/**
 * Checks a fetched manifest document against the manifest schema and the gateway's own rules (name
 * prefix, duplicate names, endpoint rules), and turns it into tool definitions. All problems are
 * reported together, by tool name and field, never with field values.
 */
export function validateManifest(document: unknown, target: BundleTarget): ManifestValidation {
  const shape = manifestDocument.check(document, 'manifest');
  if (!shape.ok) return { ok: false, problems: shape.problems };
  const { tools, revision } = document as { tools: ManifestTool[]; revision?: string };
  const problems: string[] = [];
  const seen = new Set<string>();
  const definitions: UncompiledTool[] = [];
  for (const tool of tools) {
    if (seen.has(tool.name)) problems.push(`tool ${tool.name}: duplicate name`);
    seen.add(tool.name);
    if (target.namePrefix !== undefined && !tool.name.startsWith(target.namePrefix)) {
      problems.push(`tool ${tool.name}: name must start with "${target.namePrefix}"`);
    }
    const endpoint = resolveEndpoint(tool.endpoint ?? tool._meta?.endpoint, target.serviceDomain);
    if (typeof endpoint === 'string') {
      problems.push(`tool ${tool.name}: ${endpoint}`);
      continue;
    }
    const timeoutMillis = tool.timeoutMillis ?? tool._meta?.timeoutMillis;
    const task = readTaskDeclaration(tool.task);
    definitions.push({
      name: tool.name,
      // MCP's own form of the declaration, for clients (2025-11-25 `execution.taskSupport`).
      publicTool: task ? { ...publicFields(tool), execution: { taskSupport: task.support } } : publicFields(tool),
      endpoint,
      target: SERVICE_TARGET,
      routeToken: target.name,
      ...(timeoutMillis !== undefined && { timeoutMillis }),
      ...(tool.maxResultChars !== undefined && { maxResultChars: tool.maxResultChars }),
      ...(tool.requiredScopes !== undefined && tool.requiredScopes.length > 0 && { requiredScopes: tool.requiredScopes }),
      ...(task && { task }),
    });
  }
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };
  return { ok: true, manifest: { tools: definitions, ...(revision !== undefined && { revision }) } };
}

/** SPEC G10: absolute http(s) URLs as they are; `/paths` under the service domain; nothing else. */
function resolveEndpoint(endpoint: string | undefined, serviceDomain: string): URL | string {
  if (endpoint === undefined) return 'endpoint is missing (top-level "endpoint" or "_meta.endpoint")';
  let url: URL;
  if (/^https?:\/\//i.test(endpoint)) {
    if (!URL.canParse(endpoint)) return 'endpoint is not a valid URL';
    url = new URL(endpoint);
  } else if (endpoint.startsWith('/') && !endpoint.startsWith('//')) {
    const joined = `${serviceDomain.replace(/\/+$/, '')}${endpoint}`;
    if (!URL.canParse(joined)) return 'endpoint does not form a valid URL with the service domain';
    url = new URL(joined);
  } else {
    return 'endpoint must be an absolute http(s) URL or a path starting with "/"';
  }
  if (url.username !== '' || url.password !== '') return 'endpoint must not carry credentials';
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'endpoint must use http or https';
  return url;
}

function publicFields(tool: ManifestTool): PublicTool {
  const picked: Record<string, unknown> = {};
  for (const field of PUBLIC_TOOL_FIELDS) if (tool[field] !== undefined) picked[field] = tool[field];
  return picked as unknown as PublicTool;
}
