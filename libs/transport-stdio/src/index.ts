// What the agent CLI imports from the stdio transport, by name; everything else under lib/ is internal.
export { ChildProcessTransport } from './lib/child-process-transport';
export { StdioErrorCode } from './lib/stdio-errors';
export { childProcesses, ChildProcessRegistry, signalGroup } from './lib/process/child-process-registry';
export { minimalEnv } from './lib/process/minimal-env';
