import { childProcesses } from '@toolmesh/transport-stdio';

import { version } from '../../../package.json';
import { runCli } from './cli/run-cli';
import { openTerminal } from './cli/terminal';
import { ExitGuard } from './process/exit-guard';
import { forTerminal } from './tools/terminal-text';

// The exit guard's reports (a crash's message may quote a server) go through the same neutralising as runCli's output.
const stderr = (text: string) => void process.stderr.write(forTerminal(text));
const guard = new ExitGuard(childProcesses, stderr);
guard.install();

// A reader that stops early (`agent-cli tools | head -1`) closes our stdout: that is not a crash of ours.
// Output is then dropped and the command finishes normally, closing its servers as usual.
let stdoutClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  stdoutClosed = true;
});
const stdout = (text: string) => void (stdoutClosed || process.stdout.write(text));

const terminal = openTerminal(process.stdin, process.stderr);

// Ctrl-C and SIGTERM also abort what `run` / `chat` are waiting for (the model, a tool), next to the guard's cleanup.
const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => interrupt.abort(new Error(`${signal} received`)));

void runCli(
  process.argv.slice(2),
  { stdout, stderr, terminal, stdin: process.stdin },
  {
    version,
    signal: interrupt.signal,
    onRuntime: (runtime) => guard.setCleanup(runtime && (() => runtime.close())),
  },
).then((code) => {
  terminal?.close();
  process.exitCode = code;
});
