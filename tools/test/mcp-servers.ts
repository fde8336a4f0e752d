import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { freePort } from './free-port';
import { until } from './process-table';
import { REPO_ROOT } from './server-process';

/** server-everything's bin as npm installed it: the `command` of a configuration that starts it over stdio. */
export const EVERYTHING_BIN = path.join(REPO_ROOT, 'node_modules/.bin/mcp-server-everything');
/** server-everything's script, for `node <script> stdio` (or a transport mode: `streamableHttp`, `sse`). */
export const EVERYTHING_SCRIPT = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export interface Everything {
  /** Its MCP endpoint: `/mcp` for Streamable HTTP, `/sse` for the legacy HTTP+SSE transport. */
  readonly url: string;
  /** What it has written to stdout and stderr so far (it logs the requests it receives). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * server-everything over HTTP, Streamable HTTP (2025) or the legacy HTTP+SSE transport, on a port the OS said
 * was free; ready once it says on stderr that it listens on that port.
 */
export async function startEverything(transport: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<Everything> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_SCRIPT, transport], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await until(() => output.includes(`on port ${port}`), `server-everything (${transport}) listening`);
  return {
    url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
    output: () => output,
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
