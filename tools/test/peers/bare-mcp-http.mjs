// The HTTP side of the bare Streamable HTTP MCP servers (node:http, no SDK, no validation): the hostile and
// request-flood peers here and the federation benchmark's server (tools/bench/gateway-federation), which
// Node runs as scripts and so import this by path. Each decides only what it answers.
import { createServer } from 'node:http';

/**
 * Serves POSTed JSON-RPC messages on 127.0.0.1, at a port the system chooses: anything but a POST is
 * refused with 405, a notification (no id) accepted with 202, and every other message (a request, or a
 * client's response to the server's own request) handed to `respond(message, req, res)`, which writes the
 * reply. Prints "<label> listening on <url>" once it accepts connections; closes on SIGTERM.
 */
export function serveBareMcp(label, respond) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (message.id === undefined) return void res.writeHead(202).end();
      respond(message, req, res);
    });
  });
  // Longer than the clients' keep-alive, so that the server never closes a pooled connection a client is
  // about to send on (which would fail that call).
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => console.log(`${label} listening on http://127.0.0.1:${server.address().port}/mcp`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

/**
 * Answers `request` with `result` as a JSON body, or with "Method not found" when `result` is undefined;
 * an answer to `initialize` carries the session id `session`, which the server never checks.
 */
export function answerJson(res, request, result, session) {
  const body = JSON.stringify(
    result === undefined
      ? { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } }
      : { jsonrpc: '2.0', id: request.id, result },
  );
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (request.method === 'initialize') headers['mcp-session-id'] = session;
  res.writeHead(200, headers).end(body);
}
