import { errorMessage } from '@toolmesh/protocol';

import type { OpenApiSelection } from '../model/http-binding';
import type { RefusedTool, ToolDefinition } from '../model/tool-definition';
import { convertOpenApi } from '../openapi/convert-openapi';
import { buildRouteSnapshot } from './build-route-snapshot';

/** What a service owner sees before deploying (issue 27): the tools a document would become, and what would not. */
export interface SourceLint {
  readonly kind: 'openapi' | 'manifest';
  /** Each tool with how it is called: `GET /pet/{petId}`, or a manifest tool's `POST` endpoint. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly call: string }>;
  readonly refused: readonly RefusedTool[];
  /** OpenAPI operations that no allowlist or extension selects. */
  readonly ignored: readonly string[];
  /** Why the whole document would be refused (the route would keep its last good tools). */
  readonly problems: readonly string[];
}

/** Where a linted document's relative endpoints are shown against: no call is ever made. */
const LINT_SERVICE_DOMAIN = 'http://tool-service.invalid';

/**
 * Loads a document as the catalogue would (the same conversion, rules and schema compiling), without a
 * route: an object with an `openapi` member is an OpenAPI document, anything else a manifest.
 */
export async function lintToolSource(document: unknown, selection: OpenApiSelection): Promise<SourceLint> {
  const isOpenApi = typeof document === 'object' && document !== null && 'openapi' in document;
  const service = { serviceDomain: LINT_SERVICE_DOMAIN, manifest: document, ...(isOpenApi && { openapi: selection }) };
  const build = await buildRouteSnapshot({ token: 'lint' }, [service], 'remote', 0, { maxTools: Number.MAX_SAFE_INTEGER });
  const ignored = isOpenApi ? await ignoredOperations(document, selection) : [];
  const kind = isOpenApi ? 'openapi' : 'manifest';
  if (!build.ok) return { kind, tools: [], refused: [], ignored, problems: build.problems };
  const tools = build.snapshot.tools.map((tool) => ({ name: tool.name, call: callOf(tool) }));
  return { kind, tools, refused: build.snapshot.refusedTools, ignored, problems: [] };
}

async function ignoredOperations(document: unknown, selection: OpenApiSelection): Promise<readonly string[]> {
  try {
    return (await convertOpenApi(document, selection, LINT_SERVICE_DOMAIN)).ignored;
  } catch (error) {
    return [`(none listed: ${errorMessage(error)})`];
  }
}

function callOf({ target, endpoint }: ToolDefinition): string {
  switch (target.kind) {
    case 'service':
      return `POST ${endpoint.href}`;
    case 'openapi': {
      const path = target.http.path.map((part) => (typeof part === 'string' ? part : `{${part.argument}}`)).join('');
      return `${target.http.method} ${path}`;
    }
    case 'mcp':
      return `MCP tools/call ${target.upstreamTool} at ${endpoint.href}`;
  }
}
