export * from './lib/stdio-errors';
export * from './lib/ndjson-stream-transport';
export * from './lib/child-process-transport';
export { ChildProcessRegistry, childProcesses, signalGroup } from './lib/process/child-process-registry';
export { minimalEnv } from './lib/process/minimal-env';
