import { invalidParams, isLoggingLevel, LOGGING_LEVELS } from '@toolmesh/protocol';

import type { RequestHandler } from '../../handlers/method-handler';

/**
 * `logging/setLevel` (2025 revisions): the gateway sends no log notifications, so any level is honoured by
 * sending nothing; a level that is not one of the revision's is -32602, as the revision asks.
 */
export const setLevelHandler: RequestHandler = async (params, _context, id) =>
  isLoggingLevel(params.level) ? { result: {} } : invalidParams(id, `"level" must be one of ${LOGGING_LEVELS.join(', ')}`);
