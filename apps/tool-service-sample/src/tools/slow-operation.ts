import { setTimeout as delay } from 'node:timers/promises';

import { dataReply } from '../http/reply';
import { defineTool, READ_ONLY } from './define-tool';

/**
 * Waits before answering. Its manifest timeout (1 s) is far below its maximum delay so that a gateway's
 * deadline handling can be tested against it. The wait is tied to the call's abort signal: a caller that
 * gives up, or the server closing, clears the timer, so no timer outlives its call.
 */
export const slowOperationTool = defineTool<{ delayMillis: number }>({
  name: 'slow_operation',
  title: 'Slow operation',
  description: 'Waits delayMillis milliseconds, then answers "waited N ms". Simulates a slow backend; its timeout is 1000 ms.',
  inputSchema: {
    type: 'object',
    properties: {
      delayMillis: { type: 'integer', minimum: 0, maximum: 120000, description: 'How long to wait, in milliseconds.' },
    },
    required: ['delayMillis'],
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: 1000,
  handle: async ({ delayMillis }, signal) => {
    await delay(delayMillis, undefined, { signal });
    return dataReply(`waited ${delayMillis} ms`);
  },
});
