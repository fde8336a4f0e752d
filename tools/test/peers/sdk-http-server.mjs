#!/usr/bin/env node
/**
 * A Streamable HTTP MCP server built with the SDK (@modelcontextprotocol/server) on node:http, port 0.
 * Prints "LISTENING <url>" on stdout once it accepts connections. For tests and benchmarks of our client.
 *
 *   --json            answer POSTs with a single JSON body instead of an SSE stream
 *   --stateless       no sessions (a fresh SDK server and transport per request)
 *   --port=<n>        listen on this port instead of one the OS picks (to restart a server in place)
 *   --modern          the SDK's 2026-07-28 entry (createMcpHandler): server/discover and stateless per-request
 *                     serving, with 2025 requests served statelessly beside it
 *   --asking          also serves a prompt "greet" and a resource "test://greeting" that ask for the user's name
 *                     (an elicitation) before they are given: an `input_required` result at 2026-07-28, a request
 *                     on the prompt's or read's own stream at 2025 (the SDK's legacy shim; issue 44)
 *
 * Tools: "add" {a, b}; "echo" {text} (read-only, with a `_meta` of its own); "notify-later" sends a logging notification 50 ms after answering
 * (so it travels on the GET notification stream); "slow" {ms} answers after ms milliseconds, or never once
 * cancelled. GET /__requests returns the method, MCP headers, JSON-RPC method, `_meta` and all headers of
 * every request received so far, for tests that check what the client sent. POST /__tools?name=<n> adds a tool <n>
 * (it answers "<n> called") to every session's server and every later one: each open session hears
 * notifications/tools/list_changed on its GET stream. POST /__describe?name=<tool>&description=<text> changes a tool's
 * description on every session's server and every later one (each open session hears list_changed): a server whose
 * tool changes after a client approved it (issue 46).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

const flags = new Set(process.argv.slice(2));
const seen = [];
/** The tools added through POST /__tools, and every session's server (stateful mode), to add them to. */
const addedTools = [];
const servers = new Set();
/** Descriptions changed through POST /__describe, by tool name; and each server's registered tools, to change them on. */
const descriptions = new Map();
const registeredTools = new WeakMap();

function addTool(server, name) {
  server.registerTool(name, { description: `Added while running: ${name}` }, async () => ({
    content: [{ type: 'text', text: `${name} called` }],
  }));
}

function mcpServer() {
  const server = new McpServer({ name: 'sdk-http-peer', version: '1.0.0' }, { capabilities: { logging: {} } });
  const registered = new Map();
  registeredTools.set(server, registered);
  const registerTool = (name, config, handler) =>
    registered.set(name, server.registerTool(name, { ...config, description: descriptions.get(name) ?? config.description }, handler));
  registerTool('add', { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  registerTool(
    'echo',
    {
      description: 'Echoes text',
      inputSchema: z.object({ text: z.string() }),
      annotations: { readOnlyHint: true },
      _meta: { 'example.com/owner': 'sdk-peer' },
    },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  registerTool('slow', { description: 'Answers after a while', inputSchema: z.object({ ms: z.number() }) }, async ({ ms }, extra) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal?.addEventListener('abort', () => clearTimeout(timer));
    });
    return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
  });
  registerTool('notify-later', { description: 'Sends a notification after answering' }, async () => {
    setTimeout(() => void server.sendLoggingMessage({ level: 'info', data: 'later' }).catch(() => undefined), 50);
    return { content: [{ type: 'text', text: 'scheduled' }] };
  });
  for (const name of addedTools) addTool(server, name);
  if (flags.has('--asking')) addAskingFeatures(server);
  return server;
}

/** --asking: a prompt and a resource that need the user's name first (the SDK asks it the way the request's era has). */
function addAskingFeatures(server) {
  const askName = inputRequired({
    inputRequests: {
      user_name: inputRequired.elicit({
        message: 'What is your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      }),
    },
  });
  const nameOf = (ctx) => acceptedContent(ctx.mcpReq.inputResponses, 'user_name')?.name;
  server.registerPrompt(
    'greet',
    { description: 'Greets the user by name, asked first', argsSchema: z.object({ style: z.string() }) },
    async ({ style }, ctx) => {
      const name = nameOf(ctx);
      if (typeof name !== 'string') return askName;
      return { messages: [{ role: 'user', content: { type: 'text', text: `Greet ${name} (${style})` } }] };
    },
  );
  server.registerResource('greeting', 'test://greeting', { mimeType: 'text/plain' }, async (uri, ctx) => {
    const name = nameOf(ctx);
    if (typeof name !== 'string') return askName;
    return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Hello, ${name}` }] };
  });
}

async function statefulTransport() {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: flags.has('--json'),
  });
  const server = mcpServer();
  servers.add(server);
  await server.connect(transport);
  return transport;
}

const modern = flags.has('--modern')
  ? createMcpHandler(() => mcpServer(), { responseMode: flags.has('--json') ? 'json' : 'auto' })
  : undefined;
const sessions = new Map();
let pendingInitialize;

async function transportFor(request) {
  if (flags.has('--stateless')) {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: flags.has('--json'),
    });
    await mcpServer().connect(transport);
    return transport;
  }
  const id = request.headers.get('mcp-session-id');
  if (id && sessions.has(id)) return sessions.get(id);
  if (id) return undefined;
  pendingInitialize = await statefulTransport();
  return pendingInitialize;
}

/** The 2025 serving: the request's session (or a new one, or none with --stateless); 404 to a session it does not know. */
async function responseOf(request) {
  const transport = await transportFor(request);
  if (!transport) {
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }), {
      status: 404,
    });
  }
  const response = await transport.handleRequest(request);
  if (transport.sessionId && !sessions.has(transport.sessionId)) sessions.set(transport.sessionId, transport);
  return response;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined;
}

function jsonRpcOf(body) {
  try {
    return body ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}

function toWebRequest(req, body) {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
}

const http = createServer(async (req, res) => {
  if (req.url === '/__requests') {
    res.setHeader('content-type', 'application/json');
    return res.end(JSON.stringify(seen));
  }
  if (req.url?.startsWith('/__tools?') && req.method === 'POST') {
    const name = new URL(req.url, 'http://peer').searchParams.get('name') ?? '';
    addedTools.push(name);
    for (const server of servers) addTool(server, name);
    return res.writeHead(204).end();
  }
  if (req.url?.startsWith('/__describe?') && req.method === 'POST') {
    const query = new URL(req.url, 'http://peer').searchParams;
    const name = query.get('name') ?? '';
    descriptions.set(name, query.get('description') ?? '');
    for (const server of servers)
      registeredTools
        .get(server)
        ?.get(name)
        ?.update({ description: descriptions.get(name) });
    return res.writeHead(204).end();
  }
  const body = await readBody(req);
  const message = jsonRpcOf(body);
  seen.push({
    method: req.method,
    sessionId: req.headers['mcp-session-id'] ?? null,
    protocolVersion: req.headers['mcp-protocol-version'] ?? null,
    authorization: req.headers.authorization ?? null,
    rpcMethod: message?.method ?? null,
    meta: message?.params?._meta ?? null,
    headers: req.headers,
  });
  const request = toWebRequest(req, body);
  const response = modern ? await modern.fetch(request) : await responseOf(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return res.end();
  const reader = response.body.getReader();
  req.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away
  }
  res.end();
});

http.keepAliveTimeout = 60_000;
const port = Number([...flags].find((flag) => flag.startsWith('--port='))?.slice('--port='.length) ?? 0);
http.listen(port, '127.0.0.1', () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
