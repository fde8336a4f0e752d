import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { errorMessage } from '@toolmesh/protocol';

import { ConfigEditor, type NewServerEntry } from '../../config/config-editor';
import { withFileLock } from '../../config/config-file-lock';
import { DEFAULT_CONFIG_FILE, parseConfig } from '../../config/load-config';
import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { PROGRAM } from '../../program-name';
import type { CliIo } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';
import { COMMAND_HELP } from '../help';
import { terminalSafeIo } from '../terminal';
import { userConfigFile } from '../user-config';
import { newEntry } from './mcp-add-entry';
import { mcpLogin, mcpLogout } from './mcp-login-command';

/** A name typed wrong (absent, taken, not allowed) is a usage error; a file or an entry that cannot be read is a configuration error. */
const USAGE_CODES: ReadonlySet<string> = new Set([
  AgentErrorCode.ServerNotFound,
  AgentErrorCode.ConfigDuplicateServer,
  AgentErrorCode.InvalidServerName,
  AgentErrorCode.OAuthNotConfigured,
]);

/**
 * `agent-cli mcp add | remove | list | get`: the configuration's server list, edited like `claude mcp`
 * (SPEC A20). It parses its own options (`-e KEY=value`, `-H "Name: value"`, `--transport`), never starts a
 * server, and works on the file's text, so a file with an unset `${VAR}` can still be edited. An added
 * entry is checked as the CLI will read it before the file is written; the write replaces the file at once.
 */
export async function mcpCommand(
  args: readonly string[],
  rawIo: CliIo,
  where: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly version: string },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        config: { type: 'string', short: 'c' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        transport: { type: 'string', short: 't' },
        env: { type: 'string', short: 'e', multiple: true },
        header: { type: 'string', short: 'H', multiple: true },
        'annotation-trust': { type: 'string' },
        era: { type: 'string' },
        timeout: { type: 'string' },
        roots: { type: 'string', multiple: true },
        scope: { type: 'string', short: 's' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    return usage(terminalSafeIo(rawIo, false), errorMessage(error));
  }
  const { values, positionals } = parsed;
  const io = terminalSafeIo(rawIo, values.json === true);
  const [action, ...rest] = positionals;
  if (values.help || action === undefined) {
    io.stdout(COMMAND_HELP.mcp);
    return ExitCode.Ok;
  }
  const scope = values.scope ?? 'project';
  if (scope !== 'project' && scope !== 'user') return usage(io, `--scope must be project or user, not "${scope}"`);
  if (scope === 'user' && values.config !== undefined)
    return usage(io, '--scope user edits the user configuration, --config a project file: give one of them');
  const file = scope === 'user' ? userConfigFile(where.env) : path.resolve(where.cwd, values.config ?? DEFAULT_CONFIG_FILE);
  try {
    switch (action) {
      case 'add': {
        const entry = newEntry(rest, { ...values, annotationTrust: values['annotation-trust'] }, { cwd: where.cwd, file });
        if ('problem' in entry) return usage(io, entry.problem);
        // The user's folder may not exist yet; it holds credentials too, so only its owner may enter it.
        if (scope === 'user') mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        return await add(io, file, entry, values.json === true);
      }
      case 'remove':
        if (rest.length !== 1) return usage(io, '"remove" takes the name of one server');
        return await edit(
          io,
          file,
          (editor) => editor.remove(rest[0]),
          values.json === true ? { removed: rest[0], file } : `removed the server "${rest[0]}" from ${file}`,
        );
      case 'enable':
      case 'disable': {
        if (rest.length !== 1) return usage(io, `"${action}" takes the name of one server`);
        const on = action === 'enable';
        return await edit(
          io,
          file,
          (editor) => editor.setEnabled(rest[0], on),
          values.json === true
            ? { server: rest[0], enabled: on, file }
            : on
              ? `turned on the server "${rest[0]}" in ${file}`
              : `turned off the server "${rest[0]}" in ${file}: kept, never started; ${PROGRAM} mcp enable ${rest[0]} turns it on`,
        );
      }
      case 'list':
        if (rest.length > 0) return usage(io, '"list" takes no arguments');
        return list(io, file, values.json === true);
      case 'get':
        if (rest.length !== 1) return usage(io, '"get" takes the name of one server');
        return get(io, file, rest[0], values.json === true);
      case 'login':
      case 'logout': {
        if (rest.length !== 1) return usage(io, `"${action}" takes the name of one server`);
        const context = { io, file, env: where.env, version: where.version, json: values.json === true };
        return action === 'login' ? await mcpLogin(rest[0], context) : mcpLogout(rest[0], context);
      }
      default:
        return usage(io, `unknown action "${action}"; use add, remove, enable, disable, list, get, login or logout`);
    }
  } catch (error) {
    // A sign-in that fails (the server, the browser, the authorization server) is a failure, not a usage error.
    if (!(error instanceof AgentError)) {
      if (action !== 'login') throw error;
      io.stderr(`${PROGRAM} mcp login: ${errorMessage(error)}\n`);
      return ExitCode.Failure;
    }
    io.stderr(`${PROGRAM} mcp ${action}: ${error.message} [${error.code}]\n`);
    return USAGE_CODES.has(error.code)
      ? ExitCode.Usage
      : error.code.startsWith('oauth.') || error.code === AgentErrorCode.ConfigLocked
        ? ExitCode.Failure
        : ExitCode.Config;
  }
}

async function add(io: CliIo, file: string, entry: NewServerEntry, json: boolean): Promise<number> {
  // The entry alone, read as the CLI reads a configuration (name, transport, URL): so a bad entry never
  // reaches the file. ${VAR}s are checked for form only; they may be set later, where the CLI runs.
  const alone = new ConfigEditor(file, '');
  alone.add(entry);
  parseConfig(alone.toString(), file, new Proxy({}, { get: () => 'set' }));
  const described = entry.transport === 'stdio' ? `${entry.command}${entry.args?.length ? ` ${entry.args.join(' ')}` : ''}` : entry.url;
  // mcp add never connects, so it cannot tell a toolmesh gateway from another server: it says what fits one.
  if (entry.transport === 'streamable-http' && entry.annotationTrust === undefined && !json) {
    io.stderr(
      `note: for a toolmesh gateway, add it with --annotation-trust read-only: its read-only tools (annotated by their tool service's owner) then run without asking\n`,
    );
  }
  const roots = (entry.roots ?? []).map((root) => path.resolve(path.dirname(file), root));
  const created = !existsSync(file);
  const done = await edit(
    io,
    file,
    (editor) => editor.add(entry),
    json
      ? { added: entry.name, transport: entry.transport, file, roots }
      : `added the ${entry.transport} server "${entry.name}" (${described}) to ${file}\n${rootsChosen(roots)}`,
  );
  // The file may come to hold headers with tokens, and .agent-cli/ keeps the transcripts of conversations.
  if (created && insideGitWorkTree(path.dirname(file))) {
    io.stderr(`note: ${path.basename(file)} may come to hold credentials and .agent-cli/ holds transcripts: add both to .gitignore\n`);
  }
  return done;
}

/**
 * What the entry offers as roots, said at once: a server that reads roots (server-filesystem) serves them
 * in place of the folders its arguments give, so the choice changes what it serves.
 */
function rootsChosen(roots: readonly string[]): string {
  return roots.length > 0
    ? `roots: ${roots.join(', ')} (offered to it as its MCP roots; a filesystem server serves these instead of the folders in its arguments)`
    : 'roots: none (it keeps the folders its own arguments give; --roots <folder> offers folders, --roots . this one)';
}

function insideGitWorkTree(directory: string): boolean {
  for (let at = directory; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return true;
    if (path.dirname(at) === at) return false;
  }
}

/**
 * Reads the file (none yet: an empty one), applies `change`, and replaces the file with the result, all
 * under the file's lock: an edit run at the same time by another process is read, never overwritten.
 */
async function edit(io: CliIo, file: string, change: (editor: ConfigEditor) => void, done: string | object): Promise<number> {
  await withFileLock(file, () => {
    const editor = new ConfigEditor(file, existsSync(file) ? readText(file) : '');
    change(editor);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, editor.toString(), { mode: existsSync(file) ? statSync(file).mode & 0o777 : 0o644 });
    renameSync(temporary, file);
  });
  io.stdout(typeof done === 'string' ? `${done}\n` : `${JSON.stringify(done, null, 2)}\n`);
  return ExitCode.Ok;
}

function list(io: CliIo, file: string, json: boolean): number {
  const servers = existsSync(file) ? new ConfigEditor(file, readText(file)).list() : [];
  if (json) {
    io.stdout(`${JSON.stringify({ file, servers }, null, 2)}\n`);
  } else if (servers.length === 0) {
    io.stdout(`no MCP servers configured in ${file}; add one with ${PROGRAM} mcp add\n`);
  } else {
    const rows = servers.map(({ name, entry }) => [
      isOff(entry) ? `${name} (off)` : name,
      transportOf(entry),
      eraOf(entry),
      String(entry.url ?? [entry.command, ...((entry.args as unknown[]) ?? [])].join(' ')),
    ]);
    io.stdout(formatTable(['SERVER', 'TRANSPORT', 'ERA', 'COMMAND / URL'], rows));
  }
  return ExitCode.Ok;
}

function get(io: CliIo, file: string, name: string, json: boolean): number {
  const server = (existsSync(file) ? new ConfigEditor(file, readText(file)).list() : []).find((s) => s.name === name);
  if (!server)
    throw new AgentError(
      AgentErrorCode.ServerNotFound,
      `${file} has no server named "${name}"; ${PROGRAM} mcp list shows the configured ones`,
    );
  if (json) io.stdout(`${JSON.stringify(server.entry, null, 2)}\n`);
  else {
    const fields = Object.entries(server.entry)
      .filter(([key]) => key !== 'name')
      .map(([key, value]) => `  ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    // The era it is spoken to with, also when the entry leaves it to the default.
    if (server.entry.era === undefined) fields.push(`  era: ${eraOf(server.entry)} (default)`);
    io.stdout(`${name}:\n${fields.join('\n')}\n`);
  }
  return ExitCode.Ok;
}

/** As the CLI reads it: `enabled: false`, or `"disabled": true` in an `mcpServers` file. */
function isOff(entry: Readonly<Record<string, unknown>>): boolean {
  return entry.enabled === false || entry.disabled === true;
}

function transportOf(entry: Readonly<Record<string, unknown>>): string {
  const named = entry.transport ?? entry.type;
  return typeof named === 'string' ? named : entry.url !== undefined ? 'streamable-http' : 'stdio';
}

/** The configured protocol era (SPEC A18): `auto` unless set; the legacy `sse` transport is always `legacy`. */
function eraOf(entry: Readonly<Record<string, unknown>>): string {
  if (transportOf(entry) === 'sse') return 'legacy';
  return typeof entry.era === 'string' ? entry.era : 'auto';
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new AgentError(AgentErrorCode.ConfigNotFound, `configuration file ${file} cannot be read: ${errorMessage(error)}`);
  }
}

function usage(io: CliIo, problem: string): number {
  io.stderr(`${PROGRAM} mcp: ${problem}\nRun "${PROGRAM} mcp --help" for usage.\n`);
  return ExitCode.Usage;
}
