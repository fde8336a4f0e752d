import path from 'node:path';

import { expandStrings, printableName } from '@toolmesh/protocol';
import { parseDocument } from 'yaml';

import { AgentError, AgentErrorCode, missingConfigVariable } from '../errors/agent-errors';
import type { McpServerConfig } from '../mcp/server-config';
import { ConfigReader } from './config-reader';
import type { HookFile } from './hook-file';
import { DEFAULT_LLM_CONFIG, type LlmConfig, readLlmConfig } from './llm-config';
import { loadHookFiles } from './load-hook-files';
import { readTextFile } from './read-text-file';
import { readRewakeConfig, type RewakeConfig } from './rewake-config';
import { readServerEntry } from './server-entry';

export const DEFAULT_CONFIG_FILE = 'agent-cli.yaml';

export interface AgentConfig {
  readonly file: string;
  readonly servers: readonly McpServerConfig[];
  /** The hook files listed under `hooks`, read and validated at load (docs/agent-cli.md, "Hooks"). */
  readonly hooks?: readonly HookFile[];
  /** Folders of Agent Skills (`skills.folders`), absolute: each subfolder with a SKILL.md is a skill. */
  readonly skillFolders?: readonly string[];
  /** Absent only in configurations built in code; `loadConfig` always fills it, with defaults if need be. */
  readonly llm?: LlmConfig;
  /** Which notifications become events (`rewake`); absent: the defaults (DEFAULT_REWAKE_CONFIG). */
  readonly rewake?: RewakeConfig;
  /** Folders besides the working directory the built-in file tools work in without asking (`workspaceRoots`), absolute. */
  readonly workspaceRoots?: readonly string[];
  /** The servers turned off (`enabled: false`, `"disabled": true`): kept in the file, never started. */
  readonly disabledServers?: readonly string[];
  /** What was left out of an imported `mcpServers` file and how to fix it; the CLI prints each as a warning. */
  readonly warnings?: readonly string[];
}

export const SERVER_KEYS = [
  'name',
  'transport',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'requestTimeoutMs',
  'startupTimeoutMs',
  'maxCallTimeoutMs',
  'maxMessageBytes',
  'annotationTrust',
  'alwaysLoad',
  'era',
  'oauth',
  'serverRequests',
  'roots',
  'enabled',
  'tools',
];

/**
 * Reads the agent's configuration: either the agent's own YAML (`mcp.servers: [...]`) or, imported
 * as is, the `mcpServers` JSON that Claude Desktop, Claude Code and other MCP hosts keep
 * (`{"mcpServers": {"name": {...}}}`). YAML is a superset of JSON, so one parser reads both.
 */
export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env, under?: AgentConfig): AgentConfig {
  const read = readTextFile(file);
  if (!read.ok)
    throw new AgentError(
      AgentErrorCode.ConfigNotFound,
      `configuration file ${file} ${read.reason}; create it or pass --config <file> (see docs/agent-cli.md)`,
    );
  return parseConfig(read.text, file, env, under);
}

/** No servers, no hooks, the default LLM settings: an empty file, or no default file at all. */
export function emptyConfig(file: string): AgentConfig {
  return { file, servers: [], llm: DEFAULT_LLM_CONFIG };
}

/**
 * Reads one configuration file; given `under` (the user's configuration), the file is read over it: its
 * servers by name (one of the file's replaces the user's of the same name, turned off or not), and each
 * other section (llm, hooks, skills, rewake, workspaceRoots) the file's when it sets it, else the user's.
 */
export function parseConfig(text: string, file: string, env: NodeJS.ProcessEnv, under?: AgentConfig): AgentConfig {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new AgentError(AgentErrorCode.ConfigInvalid, `${file} is not valid YAML or JSON: ${document.errors[0].message}`);
  }
  const root = new ConfigReader(file, expandStrings(document.toJS({ maxAliasCount: 100 }), env, '', missingConfigVariable), '');
  if (!root.present) return under ? { ...under, file } : emptyConfig(file);
  if (!root.isObject()) throw root.error('a map with "mcp" (agent format) or "mcpServers" (MCP host format)');
  const imported = root.at('mcpServers').present;
  const warnings: string[] = [];
  const configDirectory = path.dirname(file);
  const entries = imported ? root.at('mcpServers').entries() : agentFormatEntries(root);
  const disabledServers = entries.filter(([, entry]) => isDisabled(entry)).map(([name]) => name);
  const enabled = entries.filter(([, entry]) => !isDisabled(entry));
  const servers = imported
    ? importMcpServers(enabled, configDirectory, (warning) => warnings.push(`${file}: ${warning}`))
    : enabled.map(([name, entry]) => readServerEntry(name, entry, { configDirectory }));
  assertUniqueNames(servers, file);
  const own = (section: string) => under === undefined || root.at(section).present;
  const layered = under ? serversOver(under, servers, disabledServers) : { servers, disabledServers };
  // Hook files and skill folders are the agent format's; paths are relative to the configuration file, not to where the CLI runs.
  const hookFiles = imported ? [] : relativePaths(root.at('hooks'), file);
  const skillFolders = imported ? [] : readSkillFolders(root.at('skills'), file);
  // The MCP host format has no llm section: there `--model` and the defaults apply.
  const llm = imported ? DEFAULT_LLM_CONFIG : readLlmConfig(root.at('llm'));
  // A rule for a server turned off stays valid: it applies again once the server is turned on.
  const rewake = own('rewake')
    ? readRewakeConfig(root.at('rewake'), [...layered.servers.map((s) => s.name), ...layered.disabledServers])
    : under?.rewake;
  // Relative to the configuration file, like hook files.
  const workspaceRoots = imported ? [] : relativePaths(root.at('workspaceRoots'), file);
  return {
    file,
    servers: layered.servers,
    hooks: own('hooks') ? loadHookFiles(hookFiles, env) : under?.hooks,
    ...nonEmpty('skillFolders', own('skills') ? skillFolders : (under?.skillFolders ?? [])),
    ...(rewake ? { rewake } : {}),
    llm: own('llm') ? llm : under?.llm,
    ...nonEmpty('workspaceRoots', own('workspaceRoots') ? workspaceRoots : (under?.workspaceRoots ?? [])),
    ...nonEmpty('disabledServers', layered.disabledServers),
    ...nonEmpty('warnings', [...(under?.warnings ?? []), ...warnings]),
  };
}

/** A list of paths, each resolved against the configuration file's folder. */
function relativePaths(field: ConfigReader, file: string): string[] {
  return field.stringList().map((entry) => path.resolve(path.dirname(file), entry));
}

/**
 * `skills: { folders: [...] }`. Until this release `skills` listed hook files: such a list is refused with
 * what to change, rather than read as folders that hold no skills.
 */
function readSkillFolders(skills: ConfigReader, file: string): string[] {
  if (!skills.present) return [];
  if (Array.isArray(skills.value)) {
    throw new AgentError(
      AgentErrorCode.ConfigInvalid,
      `${file}: "skills" now names folders of Agent Skills (skills: { folders: [...] }); the hook files it listed go under "hooks": rename "skills:" to "hooks:" (docs/agent-cli.md, "Hooks")`,
    );
  }
  skills.onlyKeys(['folders']);
  return relativePaths(skills.at('folders'), file);
}

/** The agent format's server entries by name, their keys checked (a typo is refused, in a server turned off too). */
function agentFormatEntries(root: ConfigReader): Array<[string, ConfigReader]> {
  root.onlyKeys(['mcp', 'hooks', 'skills', 'rewake', 'llm', 'workspaceRoots']);
  const mcp = root.at('mcp');
  if (!mcp.present) return [];
  mcp.onlyKeys(['servers']);
  return mcp
    .at('servers')
    .list()
    .map((entry) => {
      entry.onlyKeys(SERVER_KEYS);
      return [entry.at('name').string(), entry];
    });
}

/**
 * Turned off without being deleted (`mcp disable`): `enabled: false` (ours, goose's) or `"disabled": true`
 * (Claude Desktop's and other hosts' `mcpServers` files). Such an entry is not read further.
 */
function isDisabled(entry: ConfigReader): boolean {
  return entry.at('disabled').value === true || !entry.at('enabled').boolean(true);
}

/**
 * Other hosts add their own keys (`disabled`, `autoApprove`, ...); an import ignores what it does not use.
 * A file kept for another host may hold an entry this agent cannot use (a name it does not allow, a
 * transport it lacks, a missing command): that entry is left out with a warning saying what to fix,
 * and the others are used (SPEC A20). Our own YAML format stays strict.
 */
function importMcpServers(
  servers: ReadonlyArray<[string, ConfigReader]>,
  configDirectory: string,
  warn: (warning: string) => void,
): McpServerConfig[] {
  return servers.flatMap(([name, entry]) => {
    try {
      if (!entry.isObject()) throw entry.error('a map with "command" or "url"');
      return [readServerEntry(name, entry, { configDirectory })];
    } catch (error) {
      if (!(error instanceof AgentError)) throw error;
      warn(
        `the server "${printableName(name)}" was left out: ${error.message} (fix the entry, or add "disabled": true, to use the other servers without this warning)`,
      );
      return [];
    }
  });
}

/** The user's servers with the file's over them, by name: a name the file uses, turned off or not, is the file's. */
function serversOver(
  under: AgentConfig,
  servers: readonly McpServerConfig[],
  disabledServers: readonly string[],
): { servers: McpServerConfig[]; disabledServers: string[] } {
  const named = new Set([...servers.map((s) => s.name), ...disabledServers]);
  return {
    servers: [...under.servers.filter((s) => !named.has(s.name)), ...servers],
    disabledServers: [...(under.disabledServers ?? []).filter((name) => !named.has(name)), ...disabledServers],
  };
}

/** `{ key: list }` to spread into a configuration, or nothing when the list is empty (the key stays unset). */
function nonEmpty<K extends string>(key: K, list: readonly string[]): { [key in K]?: readonly string[] } {
  return list.length > 0 ? ({ [key]: list } as { [key in K]: readonly string[] }) : {};
}

function assertUniqueNames(servers: readonly McpServerConfig[], file: string): void {
  const seen = new Set<string>();
  for (const { name } of servers) {
    if (seen.has(name))
      throw new AgentError(AgentErrorCode.ConfigDuplicateServer, `${file}: two servers are named "${name}"; server names must be unique`);
    seen.add(name);
  }
}
