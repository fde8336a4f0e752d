import { printable } from '@toolmesh/protocol';

import type { ServerStatus } from '../../mcp/client-manager';
import { PROGRAM } from '../../program-name';
import { type Command, withRuntime } from '../command-context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format-table';

/** `servers`: connect all, then one row per server: status, protocol version (its era), timing, tool count, error. */
export const serversCommand: Command = (context) =>
  withRuntime(context, async (runtime) => {
    const servers = runtime.servers;
    const off = context.config.disabledServers ?? [];
    if (context.json) {
      context.io.stdout(`${JSON.stringify({ servers, ...(off.length > 0 ? { off } : {}) }, null, 2)}\n`);
    } else if (servers.length === 0) {
      context.io.stdout(`no MCP servers configured in ${context.config.file}\n`);
    } else {
      // The detail is the server's text (its name and version, or an error with its stderr): escaped, so none reaches the terminal raw.
      const detail = (s: ServerStatus) =>
        s.error ? printable(s.error, 300) : s.serverInfo ? printable(`${s.serverInfo.name} ${s.serverInfo.version}`) : '';
      const rows = servers.map((s) => [
        s.name,
        s.transport,
        s.state,
        s.protocolVersion ?? '-',
        String(s.toolCount),
        `${s.elapsedMs} ms`,
        detail(s),
      ]);
      context.io.stdout(formatTable(['SERVER', 'TRANSPORT', 'STATE', 'PROTOCOL', 'TOOLS', 'TIME', 'DETAIL'], rows));
    }
    if (off.length > 0 && !context.json)
      context.io.stdout(`turned off, not started: ${off.join(', ')} (${PROGRAM} mcp enable <name> turns one on)\n`);
    return servers.some((s) => s.state === 'failed') ? ExitCode.ServerUnavailable : ExitCode.Ok;
  });
