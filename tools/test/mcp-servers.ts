import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { freePort } from './free-port';
import { until } from './process-table';
import { REPO_ROOT } from './server-process';

const EVERYTHING_BIN = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export interface Everything {
  readonly url: string;
  stop(): Promise<void>;
}

/** server-everything's Streamable HTTP mode on a port the OS said was free; it names its port only on stderr, so its endpoint is polled. */
export async function startEverything(): Promise<Everything> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  let listening = false;
  await until(() => {
    void fetch(url).then(
      () => (listening = true),
      () => undefined,
    );
    return listening;
  }, 'server-everything listening');
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** An MCP server that accepts every request and never answers any. */
export async function startStalledServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}
