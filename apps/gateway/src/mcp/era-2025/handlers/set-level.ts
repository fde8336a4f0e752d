import { invalidParams, isLoggingLevel, LOGGING_LEVELS } from '@toolmesh/protocol';

import type { RequestHandler } from '../../handlers/method-handler';
import type { SessionLogLevels } from '../session-log-levels';

/**
 * `logging/setLevel` (2025 revisions), served when some bundle is an MCP server, whose log messages during a
 * call reach its caller (issue 44): the level is the session's, for its later calls; a level that is not
 * one of the revision's is -32602, as the revision asks.
 */
export function setLevelHandler(levels: SessionLogLevels): RequestHandler {
  return async (params, context, id) => {
    if (!isLoggingLevel(params.level)) return invalidParams(id, `"level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    levels.set(context, params.level as string);
    return { result: {} };
  };
}
