// The MCP server of the federation benchmark: as cheap as a Streamable HTTP MCP server can be (node:http,
// no SDK, no validation), so that the figures measure what is in front of it. It speaks both eras on one
// endpoint, each request by its MCP-Protocol-Version header: `server/discover` and 2026-07-28 results
// (`resultType`, a listing's cache hints), or `initialize` and a session id it never checks. One tool, `echo`, answers its
// arguments as JSON text. Prints "listening on <url>" once it accepts connections.
import { createServer } from 'node:http';

const MODERN = '2026-07-28';
const ECHO = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };

function resultOf(message) {
  switch (message.method) {
    case 'server/discover':
      return {
        supportedVersions: [MODERN],
        capabilities: { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bench-mcp-server', version: '1' } },
      };
    case 'initialize':
      return {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'bench-mcp-server', version: '1' },
      };
    case 'tools/list':
      return { tools: [ECHO], ttlMs: 60_000, cacheScope: 'public' };
    case 'tools/call':
      return { content: [{ type: 'text', text: JSON.stringify(message.params.arguments) }] };
    default:
      return undefined;
  }
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (message.id === undefined) return res.writeHead(202).end();
    const result = resultOf(message);
    const modern = req.headers['mcp-protocol-version'] === MODERN;
    const body = JSON.stringify(
      result === undefined
        ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
        : { jsonrpc: '2.0', id: message.id, result: modern ? { resultType: 'complete', ...result } : result },
    );
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (message.method === 'initialize') headers['mcp-session-id'] = 'bench-session';
    res.writeHead(200, headers).end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`bench MCP server listening on http://127.0.0.1:${server.address().port}/mcp`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
