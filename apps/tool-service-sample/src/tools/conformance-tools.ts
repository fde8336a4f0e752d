import { dataReply, errorReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, NO_ARGUMENTS, READ_ONLY } from './define-tool';

/** The MCP conformance suite calls tools by these exact names and expects these exact texts. */
export const testSimpleTextTool = defineTool<Record<string, never>>({
  name: 'test_simple_text',
  title: 'Conformance: simple text',
  description: 'Returns a fixed text. Used by the MCP conformance suite.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => dataReply('This is a simple text response for testing.'),
});

export const testErrorHandlingTool = defineTool<Record<string, never>>({
  name: 'test_error_handling',
  title: 'Conformance: error handling',
  description: 'Always fails with HTTP 500. Used by the MCP conformance suite.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: () => errorReply(500, 'This tool intentionally returns an error for testing'),
});
