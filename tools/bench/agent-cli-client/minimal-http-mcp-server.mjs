#!/usr/bin/env node
/**
 * The fastest Streamable HTTP MCP server we can write (no validation, no SDK): the benchmark's server,
 * so that client figures measure the client. Prints "LISTENING <url>" once it accepts connections.
 */
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const message = JSON.parse(body);
    if (message.id === undefined) return res.writeHead(202).end();
    const result =
      message.method === 'initialize'
        ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'minimal', version: '1' } }
        : message.method === 'tools/list'
          ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }
          : { content: [{ type: 'text', text: JSON.stringify(message.params?.arguments ?? {}) }] };
    res
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'bench' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`LISTENING http://127.0.0.1:${server.address().port}/mcp\n`));
process.on('SIGTERM', () => process.exit(0));
