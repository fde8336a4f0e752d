import { hostname, networkInterfaces } from 'node:os';

/** `X-Caller-IP` / `X-Caller-Host` sent with every tool call (SPEC G11). */
export interface CallerIdentity {
  readonly ip: string;
  readonly host: string;
}

/** From the Downward API's POD_IP / POD_NAME when set, else looked up once for the life of the process. */
export function resolveCallerIdentity(env: NodeJS.ProcessEnv): CallerIdentity {
  return {
    ip: env.POD_IP || firstExternalIpv4() || '127.0.0.1',
    host: env.POD_NAME || hostname(),
  };
}

function firstExternalIpv4(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return undefined;
}
