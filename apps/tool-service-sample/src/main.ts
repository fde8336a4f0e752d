import { isIP } from 'node:net';

import { errorMessage } from '@toolmesh/protocol';

import { startToolService } from './server';

// Its own variables, not PORT / HOST: `nx serve gateway` starts this service with the gateway's environment,
// where PORT is the gateway's (documented in docs/configuration.md).
const DEFAULT_PORT = 8081;
const DEFAULT_HOST = '127.0.0.1';
const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** Reads a TCP port from the environment; refuses to start on a value that is not one. */
function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!/^[0-9]+$/.test(raw) || port > 65535) {
    throw new Error(`${name} must be a TCP port number (0-65535), got "${raw}"`);
  }
  return port;
}

/** Reads the bind address; refuses anything that is neither an IP address nor a host name. */
function hostFromEnv(name: string, fallback: string): string {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (isIP(raw) === 0 && !HOST_NAME.test(raw)) {
    throw new Error(`${name} must be an IP address or a host name, got "${raw}"`);
  }
  return raw;
}

async function main(): Promise<void> {
  const service = await startToolService({
    port: portFromEnv('TOOL_SERVICE_PORT', DEFAULT_PORT),
    host: hostFromEnv('TOOL_SERVICE_HOST', DEFAULT_HOST),
  });
  // The only line on stdout: tests and scripts parse it to find the port.
  console.log(`tool service listening on ${service.url}`);

  // No process.exit: once the server is closed and running calls are aborted nothing is left, so the
  // process ends by itself; a leaked timer or socket would show up as a process that does not exit.
  const shutdown = (signal: string) => {
    console.error(`tool service received ${signal}, shutting down`);
    void service.close();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`tool service failed to start: ${errorMessage(error)}`);
  process.exit(1);
});
