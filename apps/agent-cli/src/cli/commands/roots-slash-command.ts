import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

import type { ServerRoots } from '../../runtime/agent-runtime';

export const ROOTS_COMMAND_USAGE = '/roots <server> [<directory> ...]';

/**
 * `/roots <server> [<directory> ...]` in `chat`: the user gives a server these directories as its roots for
 * the rest of the session (relative to the working directory), and the server is told at once
 * (`notifications/roots/list_changed`); with no directory, shows the ones it has. Only directories the user
 * names here or in the configuration are ever offered. Returns the line to show.
 */
export function rootsCommand(roots: ServerRoots | undefined, servers: readonly string[], line: string, workingDirectory: string): string {
  const [server, ...directories] = line.trim().split(/\s+/).filter(Boolean);
  if (server === undefined) return `usage: ${ROOTS_COMMAND_USAGE}`;
  if (!roots || !servers.includes(server)) return `no MCP server named "${server}"; the configured ones: ${servers.join(', ') || 'none'}`;
  if (directories.length === 0) return `roots of ${server}: ${roots.rootsOf(server).join(', ') || 'none'}`;
  const chosen = directories.map((directory) => path.resolve(workingDirectory, directory));
  const missing = chosen.find((directory) => !existsSync(directory) || !statSync(directory).isDirectory());
  if (missing) return `${missing} is not a directory; the roots of ${server} are unchanged`;
  const told = roots.setRoots(server, chosen);
  return told
    ? `roots of ${server}: ${chosen.join(', ')} (the server was told)`
    : `roots of ${server}: ${chosen.join(', ')}, from its next connection (it was connected without roots: its entry names none)`;
}
