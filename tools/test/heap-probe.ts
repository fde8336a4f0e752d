import path from 'node:path';

import type { ServerProcess } from './server-process';

/** The environment that preloads heap-probe-preload.cjs into a process started by spawnServerProcess. */
export const HEAP_PROBE_ENV = { NODE_OPTIONS: `--expose-gc --require ${path.join(__dirname, 'heap-probe-preload.cjs')}` };

const PROBE_LINE = /^heap-probe liveBytes=(\d+)$/gm;

/** The bytes still live in `server` (started with HEAP_PROBE_ENV) after a full garbage collection. */
export async function liveBytesAfterFullGc(server: ServerProcess): Promise<number> {
  const linesBefore = server.output().match(PROBE_LINE)?.length ?? 0;
  server.child.kill('SIGUSR2');
  await server.logged(PROBE_LINE, linesBefore + 1, 30_000);
  const lines = [...server.output().matchAll(PROBE_LINE)];
  return Number(lines[lines.length - 1][1]);
}
