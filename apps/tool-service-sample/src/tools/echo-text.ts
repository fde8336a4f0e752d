import { dataReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, READ_ONLY } from './define-tool';

export const echoTextTool = defineTool<{ text: string }>({
  name: 'echo_text',
  title: 'Echo text',
  description: 'Returns the given text unchanged. Useful to check that a round trip through the gateway works.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', maxLength: 10000, description: 'The text to return.' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: ({ text }) => dataReply(text),
});
