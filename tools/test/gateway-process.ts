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
