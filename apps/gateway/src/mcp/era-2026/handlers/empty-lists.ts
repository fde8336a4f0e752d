import { McpMethod } from '@toolmesh/protocol';
import { resultOutcome } from '../../outcomes';
import type { ModernRequestHandler } from '../era-2026';
import type { ModernResults } from '../modern-results';

/**
 * The gateway serves tools only, yet 2026 clients commonly list prompts and resources at start and treat
 * a `-32601` as a fault. They get empty, cacheable lists; `prompts` and `resources` stay undeclared, since
 * `prompts/get` and `resources/read` are not served (declared-capabilities.ts).
 */
export function emptyListHandlers(results: ModernResults): Array<[string, ModernRequestHandler]> {
  const empty = (member: string): ModernRequestHandler => {
    const result = { [member]: [] };
    return async (_params, _context, id) => resultOutcome(id, result, results.cacheable());
  };
  return [
    [McpMethod.PromptsList, empty('prompts')],
    [McpMethod.ResourcesList, empty('resources')],
    [McpMethod.ResourceTemplatesList, empty('resourceTemplates')],
  ];
}
