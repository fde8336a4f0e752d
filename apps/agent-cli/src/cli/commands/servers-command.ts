import { ExitCode } from '../exit-codes';
import { withRuntime, type Command } from '../command-context';
import { formatTable } from '../format-table';

/** `servers`: connect all, then one row per server: status, timing, tool count, error. */
export const serversCommand: Command = (context) =>
  withRuntime(context, async (runtime) => {
    const servers = runtime.servers;
    if (context.json) {
      context.io.stdout(`${JSON.stringify({ servers }, null, 2)}\n`);
    } else if (servers.length === 0) {
      context.io.stdout(`no MCP servers configured in ${context.config.file}\n`);
    } else {
      const rows = servers.map((s) => [s.name, s.transport, s.state, String(s.toolCount), `${s.elapsedMs} ms`, s.error ?? (s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : '')]);
      context.io.stdout(formatTable(['SERVER', 'TRANSPORT', 'STATE', 'TOOLS', 'TIME', 'DETAIL'], rows));
    }
    return servers.some((s) => s.state === 'failed') ? ExitCode.ServerUnavailable : ExitCode.Ok;
  });
