// The MCP server of the federation benchmark: as cheap as a Streamable HTTP MCP server can be (node:http,
// no SDK, no validation), so that the figures measure what is in front of it. It speaks both eras on one
// endpoint, each request by its MCP-Protocol-Version header: `server/discover` and 2026-07-28 results
// (`resultType`, a listing's cache hints), or `initialize` and a session id it never checks. One tool, `echo`, answers its
// arguments as JSON text. Prints "listening on <url>" once it accepts connections.
import { answerJson, serveBareMcp } from '../../test/peers/bare-mcp-http.mjs';

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

serveBareMcp('bench MCP server', (message, req, res) => {
  const result = resultOf(message);
  const modern = req.headers['mcp-protocol-version'] === MODERN;
  answerJson(res, message, result && modern ? { resultType: 'complete', ...result } : result, 'bench-session');
});
