import { existsSync } from 'node:fs';
import path from 'node:path';

import { type AgentConfig, DEFAULT_CONFIG_FILE, emptyConfig, loadConfig } from '../config/load-config';
import { userConfigDirectory } from '../mcp/oauth/credential-store';

/**
 * The user's configuration, beside every project's (the habit of `claude mcp add --scope user`, Codex's and
 * goose's files in the home folder): `agent-cli.yaml` in $XDG_CONFIG_HOME/toolmesh-agent (default
 * ~/.config/toolmesh-agent), the folder whose credentials the built-in tools never read.
 */
export function userConfigFile(env: NodeJS.ProcessEnv): string {
  return path.join(userConfigDirectory(env), DEFAULT_CONFIG_FILE);
}

/**
 * The configuration a command runs with: the project's file read over the user's (load-config.ts says
 * how), either alone when the other is absent. `named`: the file was given with --config, so it must exist.
 */
export function loadLayeredConfig(file: string, named: boolean, env: NodeJS.ProcessEnv): AgentConfig {
  const userFile = userConfigFile(env);
  const user = existsSync(userFile) ? loadConfig(userFile, env) : undefined;
  if (!named && !existsSync(file)) return user ?? emptyConfig(file);
  return loadConfig(file, env, user);
}
