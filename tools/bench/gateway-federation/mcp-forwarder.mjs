// Reference point, not a product: the least an MCP-to-MCP forwarder can do, the minimal proxy's MCP twin
// (tools/bench/gateway/minimal-proxy.mjs). node:http in; the client's JSON-RPC request sent on to the MCP
// server under an id of its own (a forwarder shares its upstream connections between clients) over
// kept-alive connections, with the MCP headers of the client's era; the server's result sent back under the
// client's id. No validation, no catalogue, no deadline, no logging. Toward a 2025 server it opens one
// session at start and sends every call on it.
import { createServer } from 'node:http';

import { Agent } from 'undici';

const upstream = new URL(process.env.MCP_SERVER_URL);
const agent = new Agent({ connections: 128 });
/** The headers a client's request carries that the server must see too (2026-07-28: §4's routing headers). */
const FORWARDED_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name'];
let nextId = 0;

async function post(message, headers) {
  const reply = await agent.request({
    origin: upstream.origin,
    path: upstream.pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  return { sessionId: reply.headers['mcp-session-id'], text: await reply.body.text() };
}

async function openSession() {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-forwarder', version: '1' } };
  const { sessionId } = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params }, {});
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': params.protocolVersion };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return sessionId;
}

const sessionId = await openSession();

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const headers = {};
    for (const name of FORWARDED_HEADERS) if (req.headers[name] !== undefined) headers[name] = req.headers[name];
    if (headers['mcp-protocol-version'] !== '2026-07-28') headers['mcp-session-id'] = sessionId;
    const { text } = await post({ jsonrpc: '2.0', id: (nextId += 1), method: message.method, params: message.params }, headers);
    const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: JSON.parse(text).result });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`MCP forwarder listening on http://127.0.0.1:${server.address().port}/mcp`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
