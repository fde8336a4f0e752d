import { errorReply, jsonReply, textReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, NO_ARGUMENTS, READ_ONLY } from './define-tool';

/**
 * Tools that answer the way a broken or changing upstream does, one per reply the gateway must map to an
 * error result (docs/manifest-format.md, "The call").
 */
export const alwaysFailsTool = defineTool<Record<string, never>>({
  name: 'always_fails',
  title: 'Always fails',
  description: 'Always answers HTTP 500 with a JSON error, like a backend with an internal fault.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => errorReply(500, 'the backend failed while processing the request'),
});

export const retiredToolTool = defineTool<Record<string, never>>({
  name: 'retired_tool',
  title: 'Retired tool',
  description: 'Answers HTTP 404, like a tool that was removed upstream after the manifest was read.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => errorReply(404, 'this tool has been retired'),
});

export const nonJsonReplyTool = defineTool<Record<string, never>>({
  name: 'non_json_reply',
  title: 'Non-JSON reply',
  description: 'Answers HTTP 200 with an HTML page instead of JSON, like a misconfigured proxy.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => textReply(200, 'text/html', '<html>oops</html>'),
});

export const missingDataFieldTool = defineTool<Record<string, never>>({
  name: 'missing_data_field',
  title: 'Reply without data',
  description: 'Answers HTTP 200 JSON without the "data" member the call contract requires.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => jsonReply(200, { result: 'no data member' }),
});
