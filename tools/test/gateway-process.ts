import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnServerProcess } from './server-process';

/** The line the gateway logs once it serves; its two URLs are the match's groups 1 and 2. */
export const GATEWAY_READY = /event=gateway_started mcpUrl=(\S+) managementUrl=(\S+)/;

/** A YAML configuration on free ports with the given tool service as the one bundle, plus `extraMcpYaml`. */
export function gatewayConfigFile(toolServiceUrl: string, extraMcpYaml = ''): string {
  return writeGatewayConfig(
    `server: { port: 0, managementPort: 0 }
mcp:
  bundles:
    - { name: sample, serviceDomain: "${toolServiceUrl}", manifestPath: /tool-manifest }
${extraMcpYaml}`,
  );
}

/** How long a federating gateway's catalogue is trusted in tests: longer than any test runs. */
const HOUR_MILLIS = 3_600_000;

/**
 * A configuration on free ports of the MCP server bundles `bundles` (each a YAML flow mapping), whose
 * catalogue is read again only after an hour and never for an unknown name: in a test, only a server's
 * `list_changed`, passed on, changes what the gateway serves. `mcp`: more lines of `mcp` (`redis: {...}`);
 * `catalogue`: more members of `mcp.catalogue` (`requestedRefreshIntervalMillis: 0`).
 */
export function federatingGatewayConfig(bundles: readonly string[], more: { mcp?: readonly string[]; catalogue?: string } = {}): string {
  const catalogue = [
    `refreshTtlMillis: ${HOUR_MILLIS}`,
    `forcedRefreshCooldownMillis: ${HOUR_MILLIS}`,
    ...(more.catalogue ? [more.catalogue] : []),
  ];
  return writeGatewayConfig(
    [
      'server: { port: 0, managementPort: 0 }',
      'mcp:',
      '  shutdownDrainMillis: 1000',
      `  catalogue: { ${catalogue.join(', ')} }`,
      ...(more.mcp ?? []).map((line) => `  ${line}`),
      '  bundles:',
      ...bundles.map((bundle) => `    - ${bundle}`),
      '',
    ].join('\n'),
  );
}

/** Writes `yaml` as a gateway configuration file in a directory of its own, and returns its path. */
export function writeGatewayConfig(yaml: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-process-')), 'gateway.yaml');
  writeFileSync(file, yaml);
  return file;
}

/** The built gateway as its own process, started with `configFile`; resolves once it serves. */
export function spawnGateway(configFile: string, env: Record<string, string> = {}) {
  return spawnServerProcess('gateway', env, GATEWAY_READY, ['--config', configFile]);
}
