import { expandAll, expandVariables } from '@toolmesh/protocol';
import { parseDocument } from 'yaml';

import { AgentError, AgentErrorCode, missingConfigVariable } from '../errors/agent-errors';
import { ConfigReader } from './config-reader';
import { HOOK_EVENTS, type HookAction, type HookDefinition, type HookEvent, type HookFile, HTTP_METHODS } from './hook-file';
import { readTemplate } from './hook-file-template';
import { readTextFile } from './read-text-file';

/** How long one hook action may take before it is given up (with a warning) when `timeoutMs` is not set. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5000;

const ACTION_TYPES = ['mcp_tool', 'http'] as const;

/** Reads and validates hook files (paths already resolved); the first problem stops the load. */
export function loadHookFiles(files: readonly string[], env: NodeJS.ProcessEnv): HookFile[] {
  return files.map((file) => {
    const read = readTextFile(file);
    if (!read.ok) {
      throw new AgentError(
        AgentErrorCode.HookFileNotFound,
        `hook file ${file} ${read.reason}; fix the path under "hooks" in the configuration (relative paths start at the configuration file's folder)`,
      );
    }
    return parseHookFile(read.text, file, env);
  });
}

export function parseHookFile(text: string, file: string, env: NodeJS.ProcessEnv): HookFile {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new AgentError(AgentErrorCode.HookFileInvalid, `hook file ${file} is not valid YAML: ${document.errors[0].message}`);
  }
  const root = new ConfigReader(file, document.toJS({ maxAliasCount: 100 }), '', AgentErrorCode.HookFileInvalid);
  if (!root.isObject()) throw root.error('a map with "name" and "hooks" (see docs/agent-cli.md, "Hooks")');
  root.onlyKeys(['name', 'description', 'hooks']);
  const name = root.at('name').string();
  if (!root.at('hooks').present) throw root.at('hooks').error('a list of hooks');
  return {
    name,
    description: root.at('description').optionalString(),
    file,
    hooks: root
      .at('hooks')
      .list()
      .map((entry, index) => readHook(entry, `${name}#${index}`, env)),
  };
}

function readHook(entry: ConfigReader, id: string, env: NodeJS.ProcessEnv): HookDefinition {
  entry.onlyKeys(['event', 'matcher', 'action', 'timeoutMs']);
  const event = requiredOneOf(entry.at('event'), HOOK_EVENTS);
  return {
    id,
    event,
    matcher: entry.at('matcher').present ? entry.at('matcher').string() : '*',
    action: readAction(entry.at('action'), event, env),
    timeoutMs: entry.at('timeoutMs').positiveInteger(DEFAULT_HOOK_TIMEOUT_MS),
  };
}

function readAction(action: ConfigReader, event: HookEvent, env: NodeJS.ProcessEnv): HookAction {
  if (!action.isObject()) throw action.error('a map with "type": mcp_tool or http');
  const type = requiredOneOf(action.at('type'), ACTION_TYPES);
  if (type === 'mcp_tool') {
    action.onlyKeys(['type', 'server', 'tool', 'args']);
    const args = action.at('args');
    if (args.present && !args.isObject()) throw args.error('a map: the arguments of the call, as a template');
    return {
      type,
      server: action.at('server').string(),
      tool: action.at('tool').string(),
      args: Object.fromEntries(args.entries().map(([key, value]) => [key, readTemplate(value, event)])),
    };
  }
  action.onlyKeys(['type', 'url', 'method', 'headers', 'body']);
  return {
    type,
    url: readFixedUrl(action.at('url'), env),
    method: action.at('method').oneOf(HTTP_METHODS, 'POST'),
    headers: expandAll(action.at('headers').stringMap(), env, `${action.location}.headers`, missingConfigVariable),
    body: action.at('body').present ? readTemplate(action.at('body'), event) : undefined,
  };
}

/** A setting without a default: absent is as wrong as misspelt. */
function requiredOneOf<T extends string>(field: ConfigReader, allowed: readonly [T, ...T[]]): T {
  if (!field.present) throw field.error(`one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
  return field.oneOf(allowed, allowed[0]);
}

/** `${ENV}` is expanded at load; placeholders are refused, so no argument value can pick where a request goes. */
function readFixedUrl(field: ConfigReader, env: NodeJS.ProcessEnv): URL {
  const text = field.string();
  if (text.includes('{{')) throw field.fail('is never templated (no argument value may reach an outbound URL); send values in "body"');
  let url: URL;
  try {
    url = new URL(expandVariables(text, env, field.location, missingConfigVariable));
  } catch (error) {
    if (error instanceof AgentError) throw error;
    throw field.error('an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw field.error('an http:// or https:// URL');
  return url;
}
