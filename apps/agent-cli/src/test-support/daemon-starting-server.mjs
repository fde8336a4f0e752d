#!/usr/bin/env node
/**
 * A stdio MCP server (the SDK's McpServer) that, before it serves, starts a daemon in a session of its own
 * (`detached` is setsid(2)), out of the server's process group, and writes the daemon's pid to the file
 * named by its first argument.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const daemon = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)', 'a-daemon-of-a-stdio-server'], {
  detached: true,
  stdio: 'ignore',
});
daemon.unref();
writeFileSync(process.argv[2], String(daemon.pid));
await new McpServer({ name: 'daemon-starting', version: '1.0.0' }).connect(new StdioServerTransport());
