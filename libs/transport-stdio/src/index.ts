export * from './lib/stdio-errors';
export * from './lib/ndjson-stream-transport';
export * from './lib/child-process-transport';
export { ChildProcessRegistry, childProcesses } from './lib/process/child-process-registry';
