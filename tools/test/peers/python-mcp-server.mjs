// A replay of a Python `mcp` 2.3.0 server (MCPServer, `run("streamable-http")`, default settings) whose two
// tools ask their client the 2025 way, as the SDK's documentation shows:
//
//   @mcp.tool()
//   async def ask_name(ctx: Context) -> str:
//       r = await ctx.elicit("What is your name?", Name)          # class Name(BaseModel): name: str
//       return f"hello {r.data.name}" if r.action == "accept" else f"no name ({r.action})"
//   @mcp.tool()
//   async def summarize(text: str, ctx: Context) -> str:
//       r = await ctx.session.create_message([SamplingMessage(role="user", content=TextContent(
//           type="text", text=f"Summarize: {text}"))], max_tokens=50)
//       return f"summary: {r.content.text}"
//
// Every message, status code, header and event of the real server's Streamable HTTP, as captured on
// 2026-12-07 through a logging proxy (issue 45, item 3): CI has no PyPI, so tests of our client meet this
// instead. At 2026-07-28 it answers `server/discover` (offering only that version) and the lists, and fails
// both tools with the SDK's -32600 "no back-channel" error, HTTP 400: that revision has no server-to-client
// requests. With `initialize` (2025-11-25, a session) the same tools ask on the call's event stream
// (elicitation) or on the session's GET stream (sampling: `create_message` names no related request), and
// answer once the client's response is POSTed. Prints "LISTENING <url>" once it accepts connections; GET
// /__requests returns the JSON-RPC method (or `response`), `_meta` protocol version and the HTTP method of
// each request, in order.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const MODERN = '2026-07-28';
const SERVER_INFO = { name: 'python-sdk-server', version: '' };
const META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
const NO_BACK_CHANNEL = (method) => `Cannot send '${method}': this transport context has no back-channel for server-initiated requests.`;

// The tools as the 2026-07-28 list has them (the 2025 list orders the schemas' keys differently).
const TOOLS_MODERN = [
  {
    description: 'Elicitation, imperative (server request).',
    inputSchema: { type: 'object', properties: {}, title: 'ask_nameArguments' },
    name: 'ask_name',
    outputSchema: {
      properties: { result: { title: 'Result', type: 'string' } },
      required: ['result'],
      title: 'ask_nameOutput',
      type: 'object',
    },
  },
  {
    description: 'Sampling, imperative (server request).',
    inputSchema: {
      type: 'object',
      properties: { text: { title: 'Text', type: 'string' } },
      required: ['text'],
      title: 'summarizeArguments',
    },
    name: 'summarize',
    outputSchema: {
      properties: { result: { title: 'Result', type: 'string' } },
      required: ['result'],
      title: 'summarizeOutput',
      type: 'object',
    },
  },
];
const TOOLS_LEGACY = [
  {
    description: 'Elicitation, imperative (server request).',
    inputSchema: { properties: {}, type: 'object', title: 'ask_nameArguments' },
    name: 'ask_name',
    outputSchema: {
      properties: { result: { title: 'Result', type: 'string' } },
      required: ['result'],
      type: 'object',
      title: 'ask_nameOutput',
    },
  },
  {
    description: 'Sampling, imperative (server request).',
    inputSchema: {
      properties: { text: { title: 'Text', type: 'string' } },
      required: ['text'],
      type: 'object',
      title: 'summarizeArguments',
    },
    name: 'summarize',
    outputSchema: {
      properties: { result: { title: 'Result', type: 'string' } },
      required: ['result'],
      type: 'object',
      title: 'summarizeOutput',
    },
  },
];

const MODERN_RESULTS = {
  'server/discover': () => ({
    cacheScope: 'private',
    capabilities: { prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, tools: { listChanged: true } },
    resultType: 'complete',
    supportedVersions: [MODERN],
    ttlMs: 0,
    _meta: META,
  }),
  'tools/list': () => ({ cacheScope: 'private', resultType: 'complete', tools: TOOLS_MODERN, ttlMs: 0, _meta: META }),
  'resources/list': () => ({ cacheScope: 'private', resources: [], resultType: 'complete', ttlMs: 0, _meta: META }),
  'resources/templates/list': () => ({ cacheScope: 'private', resourceTemplates: [], resultType: 'complete', ttlMs: 0, _meta: META }),
  'prompts/list': () => ({ cacheScope: 'private', prompts: [], resultType: 'complete', ttlMs: 0, _meta: META }),
};

const LEGACY_RESULTS = {
  'tools/list': () => ({ tools: TOOLS_LEGACY }),
  'resources/list': () => ({ resources: [] }),
  'resources/templates/list': () => ({ resourceTemplates: [] }),
  'prompts/list': () => ({ prompts: [] }),
};

const SSE_HEADERS = {
  server: 'uvicorn',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'content-type': 'text/event-stream',
  'x-accel-buffering': 'no',
};

/** The 2025 sessions: their GET streams, and the server's requests waiting for the client's responses. */
const sessions = new Map();
const recorded = [];

function json(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { server: 'uvicorn', 'content-length': Buffer.byteLength(text), 'content-type': 'application/json', ...headers });
  res.end(text);
}

/** One event as the SDK frames it (sse-starlette: CRLF line ends). */
function event(res, message) {
  res.write(`event: message\r\ndata: ${JSON.stringify(message)}\r\n\r\n`);
}

function answerModern(message, res) {
  const { id, method, params } = message;
  if (method === 'subscriptions/listen') {
    res.writeHead(200, SSE_HEADERS);
    const acknowledged = {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id }, notifications: params?.notifications },
    };
    return event(res, acknowledged);
  }
  if (method === 'tools/call') {
    const asked = params?.name === 'summarize' ? 'sampling/createMessage' : 'elicitation/create';
    return json(res, 400, { jsonrpc: '2.0', id, error: { code: -32600, message: NO_BACK_CHANNEL(asked) } });
  }
  const result = MODERN_RESULTS[method];
  if (!result) return json(res, 404, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found', data: method } });
  json(res, 200, { jsonrpc: '2.0', id, result: result() });
}

/** The server's own request on `stream`; resolves with the client's response to it. */
function ask(session, stream, method, params) {
  const id = (session.nextId += 1);
  event(stream, { jsonrpc: '2.0', id, method, params });
  return new Promise((resolve) => session.waiting.set(id, resolve));
}

/**
 * A call on a 2025 session: the tool's request, then its result; a client's error response to the request
 * fails the call with that error, as the SDK re-raises it.
 */
async function callLegacy(session, message, res) {
  const { id, params } = message;
  res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': session.id });
  const summarize = params?.name === 'summarize';
  const answer = summarize
    ? await ask(session, session.stream ?? res, 'sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${params.arguments?.text}` } }],
        maxTokens: 50,
      })
    : await ask(session, res, 'elicitation/create', {
        mode: 'form',
        message: 'What is your name?',
        requestedSchema: { properties: { name: { title: 'Name', type: 'string' } }, required: ['name'], title: 'Name', type: 'object' },
      });
  if (answer.error) event(res, { jsonrpc: '2.0', id, error: answer.error });
  else {
    const { result } = answer;
    const elicited = result.action === 'accept' ? `hello ${result.content?.name}` : `no name (${result.action})`;
    const text = summarize ? `summary: ${result.content?.text}` : elicited;
    event(res, { jsonrpc: '2.0', id, result: { content: [{ text, type: 'text' }], isError: false, structuredContent: { result: text } } });
  }
  res.end();
}

function answerLegacy(message, req, res) {
  if (message.method === 'initialize') {
    const session = { id: randomUUID().replaceAll('-', ''), nextId: 0, waiting: new Map(), stream: undefined };
    sessions.set(session.id, session);
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': session.id });
    const result = {
      capabilities: { prompts: { listChanged: false }, resources: { listChanged: false, subscribe: false }, tools: { listChanged: false } },
      protocolVersion: message.params?.protocolVersion,
      serverInfo: SERVER_INFO,
    };
    event(res, { jsonrpc: '2.0', id: message.id, result });
    return res.end();
  }
  const session = known(req, res);
  if (!session) return;
  const accepted = { server: 'uvicorn', 'content-type': 'application/json', 'mcp-session-id': session.id, 'content-length': 0 };
  if (message.id === undefined || message.method === undefined) {
    // A notification, or the client's response to one of our requests.
    if (message.method === undefined) session.waiting.get(message.id)?.(message);
    return void res.writeHead(202, accepted).end();
  }
  if (message.method === 'tools/call') return void callLegacy(session, message, res);
  const result = LEGACY_RESULTS[message.method];
  res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': session.id });
  event(
    res,
    result
      ? { jsonrpc: '2.0', id: message.id, result: result() }
      : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found', data: message.method } },
  );
  res.end();
}

/** The request's session; else the SDK's answer, 404 to one it does not know, 400 without one (with a session id of no use). */
function known(req, res) {
  const named = req.headers['mcp-session-id'];
  const session = sessions.get(named);
  if (session) return session;
  if (named !== undefined) json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Session not found' } });
  else {
    const error = { code: -32600, message: 'Bad Request: Missing session ID' };
    json(res, 400, { jsonrpc: '2.0', id: null, error }, { 'mcp-session-id': randomUUID().replaceAll('-', '') });
  }
  return undefined;
}

function sessionStream(req, res) {
  const session = known(req, res);
  if (!session) return;
  if (req.method === 'DELETE') {
    sessions.delete(session.id);
    session.stream?.end();
    return void res
      .writeHead(200, { server: 'uvicorn', 'content-type': 'application/json', 'mcp-session-id': session.id, 'content-length': 0 })
      .end();
  }
  res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': session.id });
  session.stream = res;
  res.on('close', () => {
    if (session.stream === res) session.stream = undefined;
  });
}

const http = createServer((req, res) => {
  if (req.url === '/__requests') return json(res, 200, recorded);
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST') {
      recorded.push({ http: req.method });
      return sessionStream(req, res);
    }
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const version = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'] ?? null;
    recorded.push({ http: 'POST', rpc: message.method ?? 'response', version });
    if (req.headers['mcp-protocol-version'] === MODERN) answerModern(message, res);
    else answerLegacy(message, req, res);
  });
});
http.keepAliveTimeout = 65_000;
http.listen(0, '127.0.0.1', () => process.stdout.write(`LISTENING http://127.0.0.1:${http.address().port}/mcp\n`));
process.on('SIGTERM', () => {
  for (const session of sessions.values()) session.stream?.end();
  http.closeAllConnections();
  http.close(() => process.exit(0));
});
