import { dataReply, errorReply, inputRequiredReply } from '../http/reply';
import { DEFAULT_TIMEOUT_MILLIS, defineTool, NO_ARGUMENTS, READ_ONLY, type Tool } from './define-tool';
import { JOBS } from './jobs';

/**
 * Tools that run long (issue 47): each answers `202 Accepted` with its job's `Location` (jobs.ts), and
 * declares so in the manifest (`task`) for the gateway to poll it, or to give the caller a task. Their
 * names and behaviour are what the Tasks scenarios of the MCP conformance suite look for (0.2.0-alpha.12,
 * SEP-2663); `generate_report` is config/examples/tasks.yaml's, lasting `TASK_SECONDS`.
 */

/** `generate_report`'s length: the environment's `TASK_SECONDS`, else 9 s. */
function taskSeconds(): number {
  const seconds = Number(process.env.TASK_SECONDS);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : 9;
}

const greetTool = defineTool<{ name: string }>({
  name: 'greet',
  title: 'Greet',
  description: 'Answers "Hello, {name}!" at once: the synchronous tool of the MCP conformance suite\'s Tasks scenarios.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  handle: ({ name }) => dataReply(`Hello, ${name}!`),
});

const slowComputeTool = defineTool<{ seconds: number; label?: string }>({
  name: 'slow_compute',
  title: 'Slow compute',
  description:
    'Computes for `seconds` seconds as a job (202 Accepted, then a status URL to poll), then answers with its label. Cancellable.',
  inputSchema: {
    type: 'object',
    properties: { seconds: { type: 'number', minimum: 0, maximum: 3600 }, label: { type: 'string', maxLength: 200 } },
    required: ['seconds'],
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  task: { support: 'optional', cancel: 'delete' },
  handle: ({ seconds, label }) => JOBS.accept(seconds * 1000, () => dataReply(`computed ${label ?? 'it'} in ${seconds} s`)),
});

const generateReportTool = defineTool<Record<string, never>>({
  name: 'generate_report',
  title: 'Generate report',
  description: 'Builds the quarterly report as a job lasting TASK_SECONDS (9 s unless set), then answers with it. Cancellable.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  task: { support: 'optional', cancel: 'delete' },
  handle: () => {
    const seconds = taskSeconds();
    return JOBS.accept(seconds * 1000, () => dataReply(`report ready after ${seconds} s: 3 regions, revenue up 4%`));
  },
});

const failingJobTool = defineTool<Record<string, never>>({
  name: 'failing_job',
  title: 'Failing job',
  description: "A job that fails after a second: its status URL then answers HTTP 500, which is the tool's error. Must run as a task.",
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  task: { support: 'required' },
  handle: () => JOBS.accept(1000, () => errorReply(500, 'the job failed: its input file is corrupt')),
});

const protocolErrorJobTool = defineTool<Record<string, never>>({
  name: 'protocol_error_job',
  title: 'Lost job',
  description: 'A job that the service loses after a second: its status URL then answers 410 Gone, which fails the task.',
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  task: { support: 'optional' },
  handle: () => JOBS.accept(1000, () => errorReply(410, 'the job was lost')),
});

const confirmDeleteTool = defineTool<{ filename: string }>({
  name: 'confirm_delete',
  title: 'Delete a file',
  description: 'Deletes a (pretend) file as a job of half a second.',
  inputSchema: {
    type: 'object',
    properties: { filename: { type: 'string', maxLength: 200 } },
    required: ['filename'],
    additionalProperties: false,
  },
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  task: { support: 'optional', cancel: 'delete' },
  handle: ({ filename }) => JOBS.accept(500, () => dataReply(`deleted ${filename}`)),
});

/** Asks the user's name (MRTR), then runs a job greeting them: the input is gathered before the task exists (SEP-2663). */
const taskAfterInputTool = defineTool<Record<string, never>>({
  name: 'test_tool_with_task',
  title: 'Greet after asking, as a task',
  description: "Asks for the user's name, then greets them from a job of a second. Must run as a task.",
  inputSchema: NO_ARGUMENTS,
  annotations: READ_ONLY,
  timeoutMillis: DEFAULT_TIMEOUT_MILLIS,
  task: { support: 'required' },
  handle: (_args, _signal, { inputResponses }) => {
    if (inputResponses === undefined)
      return inputRequiredReply({
        user_name: {
          method: 'elicitation/create',
          params: {
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
      });
    const answer = Object.values(inputResponses)[0] as { content?: { name?: unknown } } | undefined;
    const name = typeof answer?.content?.name === 'string' ? answer.content.name : 'stranger';
    return JOBS.accept(1000, () => dataReply(`Hello, ${name}, from a task!`));
  },
});

export const LONG_RUNNING_TOOLS: readonly Tool[] = [
  greetTool,
  slowComputeTool,
  generateReportTool,
  failingJobTool,
  protocolErrorJobTool,
  confirmDeleteTool,
  taskAfterInputTool,
];
