import type { StartupProgress } from '../mcp/client-manager';

/** Startup progress as lines on stderr, so stdout stays clean for output and --json. */
export function progressReporter(stderr: (text: string) => void): StartupProgress {
  return (event) => {
    if (event.kind === 'connecting') {
      if (event.servers.length > 0) stderr(`connecting to ${event.servers.length} MCP server(s): ${event.servers.join(', ')}\n`);
      return;
    }
    const { status } = event;
    stderr(
      status.state === 'connected'
        ? `  ok     ${status.name} (${status.elapsedMs} ms)\n`
        : `  FAILED ${status.name} (${status.elapsedMs} ms): ${status.error}\n`,
    );
  };
}
