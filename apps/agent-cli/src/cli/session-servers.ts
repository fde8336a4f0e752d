import { ConfigReader } from '../config/config-reader';
import type { AgentConfig } from '../config/load-config';
import { isUrlLike, readServerEntry } from '../config/server-entry';
import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import type { McpServerConfig } from '../mcp/server-config';

/**
 * `--mcp-server name=<command line>` or `name=<http(s) URL>` (repeatable): servers for this run alone, as
 * goose's `--with-extension` and fast-agent's `--url` give them; nothing is written. Each is read as an entry
 * of the configuration would be (the command line split at spaces; no roots), and replaces a configured
 * server of the same name, one turned off included.
 */
export function withSessionServers(config: AgentConfig, specs: readonly string[], cwd: string): AgentConfig {
  if (specs.length === 0) return config;
  const given = specs.map((spec) => sessionServer(spec, cwd));
  const names = new Set(given.map((server) => server.name));
  if (names.size < given.length)
    throw new AgentError(AgentErrorCode.ConfigDuplicateServer, '--mcp-server names one server twice; give each a name of its own');
  return {
    ...config,
    servers: [...config.servers.filter((server) => !names.has(server.name)), ...given],
    disabledServers: (config.disabledServers ?? []).filter((name) => !names.has(name)),
  };
}

function sessionServer(spec: string, cwd: string): McpServerConfig {
  const at = spec.indexOf('=');
  const name = spec.slice(0, at);
  const target = spec.slice(at + 1).trim();
  if (at <= 0 || target === '')
    throw new AgentError(AgentErrorCode.ConfigInvalid, `--mcp-server "${spec}" is not name=<command line> or name=<http(s) URL>`);
  const [command, ...args] = target.split(/\s+/);
  const entry = isUrlLike(target) ? { url: target } : { command, args };
  return readServerEntry(name, new ConfigReader('--mcp-server', entry, name), { configDirectory: cwd });
}
