import { startManagementServer } from './management/health-server';

const DEFAULT_MANAGEMENT_PORT = 9090;

/** Reads a TCP port from the environment; refuses to start on a value that is not one. */
function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a TCP port number (0-65535), got "${raw}"`);
  }
  return port;
}

async function main(): Promise<void> {
  const host = process.env.HOST || '127.0.0.1';
  const management = await startManagementServer(portFromEnv('MANAGEMENT_PORT', DEFAULT_MANAGEMENT_PORT), host, {
    ready: () => true,
  });
  console.log(`gateway management endpoint listening on ${management.url} (GET /actuator/health/liveness, /readiness)`);

  const shutdown = (signal: string) => {
    console.log(`gateway received ${signal}, shutting down`);
    management.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(`gateway failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
