import { callerText, invalidParams, jsonRpcError, JsonRpcErrorCode, McpMethod } from '@toolmesh/protocol';

import { errorOutcome, resultOutcome } from '../../outcomes';
import type { ModernRequestHandler } from '../era-2026';
import type { ModernResults } from '../modern-results';

/**
 * Without an MCP server bundle (whose servers' prompts and resources are served instead, issue 28) the
 * gateway serves tools only, yet 2026 clients commonly list prompts and resources at start and treat
 * a `-32601` as a fault, and the revision ties those methods to capabilities. So it has both capabilities,
 * served as a server with none of either must: empty, cacheable lists, and `-32602` for a prompt or a
 * resource asked for by name (the revision's code for an unknown one, `data.uri` for a resource). Every
 * method of each capability is served, so server/discover declares them (declared-capabilities.ts).
 */
export function emptyPromptsAndResources(results: ModernResults): Array<[string, ModernRequestHandler]> {
  const empty = (member: string): ModernRequestHandler => {
    const result = { [member]: [] };
    return async (_params, _context, id) => resultOutcome(id, result, results.cacheable());
  };
  const promptsGet: ModernRequestHandler = async (params, _context, id) =>
    errorOutcome(
      typeof params.name === 'string'
        ? invalidParams(id, `no prompt named ${callerText(params.name)}: this gateway serves tools only`)
        : invalidParams(id, '"name" must be a string'),
    );
  const resourcesRead: ModernRequestHandler = async (params, _context, id) =>
    errorOutcome(
      typeof params.uri === 'string'
        ? jsonRpcError(
            id,
            JsonRpcErrorCode.InvalidParams,
            `Resource not found: ${callerText(params.uri)}: this gateway serves tools only`,
            { uri: params.uri },
          )
        : invalidParams(id, '"uri" must be a string'),
    );
  return [
    [McpMethod.PromptsList, empty('prompts')],
    [McpMethod.PromptsGet, promptsGet],
    [McpMethod.ResourcesList, empty('resources')],
    [McpMethod.ResourceTemplatesList, empty('resourceTemplates')],
    [McpMethod.ResourcesRead, resourcesRead],
  ];
}
