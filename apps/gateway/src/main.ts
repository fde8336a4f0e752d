import { parseArgs } from 'node:util';

import { errorMessage } from '@toolmesh/protocol';

import { version } from '../../../package.json';
import { startGateway } from './app/start-gateway';
import { loadConfig } from './config/load-config';
import { GatewayError } from './errors/gateway-errors';
import { lintSourceCommand } from './lint/lint-source-command';

const HELP = `toolmesh gateway - an MCP Streamable HTTP server in front of REST tool services

Usage:
  toolmesh-gateway [--config gateway.yaml]                (installed package @toolmesh/gateway)
  toolmesh-gateway lint-source <file-or-url> [--json]     (what a document would become: lint-source --help)
  node dist/apps/gateway/main.js [--config gateway.yaml]  (in the repository, after npx nx build gateway)
  npx nx serve gateway                 (local profile: also starts the sample tool service)

Options:
  -c, --config <file>   YAML configuration (also GATEWAY_CONFIG); environment variables override it
  -h, --help            Show this help and exit
  -V, --version         Print the version and exit

Without configuration it serves http://127.0.0.1:8080/mcp with one bundle, the repository's sample tool
service at http://127.0.0.1:8081 (or where TOOL_SERVICE_HOST / TOOL_SERVICE_PORT put it; the package does
not ship it: start it with npx nx serve tool-service-sample in the repository, or give --config your own
bundles), and health on http://127.0.0.1:9090/actuator/health.
Every setting and variable: docs/configuration.md.

Exit codes: 0 stopped cleanly, 1 could not start (the message says why), 2 usage error.
`;

async function main(): Promise<number> {
  if (process.argv[2] === 'lint-source') return lintSourceCommand(process.argv.slice(3), process.stdout, process.stderr);
  let args;
  try {
    args = parseArgs({
      options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'V' } },
    }).values;
  } catch (error) {
    process.stderr.write(`gateway: ${errorMessage(error)}\nRun with --help for usage.\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const config = loadConfig({ file: args.config, env: process.env });
  const gateway = await startGateway(config, { env: process.env });
  // Log lines are batched; the last ones (draining, stopped, or a crash) are written on the way out.
  process.once('exit', () => gateway.logger.flush());
  gateway.logger.info('gateway_started', { mcpUrl: gateway.mcpUrl, managementUrl: gateway.managementUrl });

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      gateway.logger.info('gateway_signal', { signal });
      gateway.stop().then(resolve, resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof GatewayError ? error.message : `could not start: ${errorMessage(error)}`;
    process.stderr.write(`gateway: ${message}\n`);
    process.exit(1);
  },
);
