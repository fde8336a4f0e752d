import path from 'node:path';

import { ERA_SETTINGS } from '@toolmesh/mcp-client';

import { AgentError, AgentErrorCode } from '../errors/agent-errors';
import { ANNOTATION_TRUST } from '../mcp/annotation-trust';
import { DEFAULT_SERVER_REQUEST_LIMITS, SERVER_REQUEST_LIMIT_KEYS, type ServerRequestLimits } from '../mcp/host/server-request-limits';
import { assertServerName, DEFAULT_REQUEST_TIMEOUT_MS, type McpServerConfig } from '../mcp/server-config';
import type { ToolFilter } from '../mcp/tool-filter';
import type { ConfigReader } from './config-reader';
import { readOAuthEntry } from './oauth-entry';

/** The transports a configuration may name; `http` is `streamable-http`, `sse` the legacy HTTP+SSE transport. */
const TRANSPORT_NAMES = ['stdio', 'streamable-http', 'http', 'sse'] as const;

/** A scheme followed by "//": a URL, never a command, whatever its scheme (where a word may be either). */
export function isUrlLike(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}

/** Where an entry's relative paths start. */
export interface ServerEntryContext {
  readonly configDirectory: string;
}

/**
 * One server entry, from either format (the agent's YAML or an `mcpServers` import): both spell the
 * same fields, and `transport` (ours) and `type` (Claude's) name the transport. Its `${VAR}`s are
 * already expanded (parseConfig expands every string of the file).
 */
export function readServerEntry(name: string, entry: ConfigReader, context: ServerEntryContext): McpServerConfig {
  try {
    assertServerName(name);
  } catch (error) {
    throw new AgentError(AgentErrorCode.InvalidServerName, `${entry.location}: ${(error as AgentError).message}`);
  }
  const transportField = entry.at('transport').present ? entry.at('transport') : entry.at('type');
  const transport = transportField.oneOf(TRANSPORT_NAMES, entry.at('url').present ? 'streamable-http' : 'stdio');
  const common = {
    name,
    requestTimeoutMs: entry.at('requestTimeoutMs').positiveInteger(DEFAULT_REQUEST_TIMEOUT_MS),
    ...(entry.at('startupTimeoutMs').present ? { startupTimeoutMs: entry.at('startupTimeoutMs').positiveInteger(0) } : {}),
    ...(entry.at('maxCallTimeoutMs').present ? { maxCallTimeoutMs: entry.at('maxCallTimeoutMs').positiveInteger(0) } : {}),
    ...(entry.at('maxMessageBytes').present ? { maxMessageBytes: entry.at('maxMessageBytes').positiveInteger(0) } : {}),
    annotationTrust: entry.at('annotationTrust').oneOf(ANNOTATION_TRUST, 'ignore'),
    ...(entry.at('alwaysLoad').present ? { alwaysLoad: entry.at('alwaysLoad').boolean(false) } : {}),
    ...(entry.at('era').present ? { era: entry.at('era').oneOf(ERA_SETTINGS, 'auto') } : {}),
    ...(entry.at('serverRequests').present ? { serverRequests: readServerRequestLimits(entry.at('serverRequests')) } : {}),
    ...readRoots(entry.at('roots'), context),
    ...(entry.at('tools').present ? { tools: readToolFilter(entry.at('tools')) } : {}),
  };
  // The HTTP+SSE transport of 2024-11-05 has no 2026-07-28 form to pin.
  if (transport === 'sse' && common.era === '2026-07-28')
    throw entry.at('era').error('"legacy" or "auto" with transport sse (a 2024-11-05 transport)');
  if (transport !== 'streamable-http' && transport !== 'http' && entry.at('oauth').present)
    throw entry.at('oauth').fail('is for streamable-http servers');
  if (transport === 'stdio') {
    return {
      ...common,
      transport,
      command: entry.at('command').string(),
      args: entry.at('args').stringList(),
      env: entry.at('env').stringMap(),
      cwd: entry.at('cwd').optionalString(),
    };
  }
  const url = readUrl(entry.at('url'));
  const headers = entry.at('headers').stringMap();
  if (transport === 'sse') return { ...common, transport, url, headers };
  const oauth = readOAuthEntry(entry.at('oauth'), headers);
  return { ...common, transport: 'streamable-http', url, headers, ...(oauth ? { oauth } : {}) };
}

/**
 * `roots: [dir, ...]`, relative to the configuration file. Absent or `[]`: none, and no roots capability,
 * so a server keeps the folders its own arguments give (server-filesystem replaces them by any roots).
 */
function readRoots(field: ConfigReader, { configDirectory }: ServerEntryContext): { roots?: readonly string[] } {
  if (!field.present) return {};
  return { roots: field.stringList().map((entry) => path.resolve(configDirectory, entry)) };
}

/** `tools: { allow: [pattern, ...], deny: [...] }`, each a tool name of the server or a pattern with `*`. */
function readToolFilter(field: ConfigReader): ToolFilter {
  field.onlyKeys(['allow', 'deny']);
  const patterns = (key: 'allow' | 'deny') => {
    const list = field.at(key);
    if (!list.present) return {};
    const names = list.stringList();
    const empty = names.indexOf('');
    if (empty >= 0) throw list.at(empty).error('a tool name, or a pattern with * (e.g. "get_*")');
    return { [key]: names };
  };
  return { ...patterns('allow'), ...patterns('deny') };
}

/** `serverRequests: { maxConcurrent, perMinute, urlWaitMs }`, each positive; one left out keeps its default. */
function readServerRequestLimits(field: ConfigReader): ServerRequestLimits {
  field.onlyKeys(SERVER_REQUEST_LIMIT_KEYS);
  return {
    maxConcurrent: field.at('maxConcurrent').positiveInteger(DEFAULT_SERVER_REQUEST_LIMITS.maxConcurrent),
    perMinute: field.at('perMinute').positiveInteger(DEFAULT_SERVER_REQUEST_LIMITS.perMinute),
    urlWaitMs: field.at('urlWaitMs').positiveInteger(DEFAULT_SERVER_REQUEST_LIMITS.urlWaitMs),
  };
}

function readUrl(field: ConfigReader): URL {
  const text = field.string();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw field.error('an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw field.error('an http:// or https:// URL');
  return url;
}
