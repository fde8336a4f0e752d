#!/usr/bin/env node
/**
 * A Streamable HTTP MCP server built with the SDK (@modelcontextprotocol/server) on node:http, port 0: our
 * stand-in for the conformance suites' reference server (`everything-server`, not published), serving what
 * every server scenario of both suites asks for (the suites' scenario source says what; the catalogue and
 * tools modules beside this file serve it), so that they can run against it directly and against a gateway
 * that has it behind it as an `mcpServer` bundle without a prefix. Prints "LISTENING <url>" on stdout once it
 * accepts connections.
 *
 * 2026-07-28 requests go to the SDK's 2026-07-28 entry (createMcpHandler, a fresh server per request); 2025
 * requests to a server per session, so that a tool can ask the client (sampling, elicitation) on its call's
 * stream and hear the answer on a later POST of the same session, and subscriptions have somewhere to live.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  McpServer,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

import { registerPrompts, registerResources, registerSubscriptions } from './conformance-features-catalogue.mjs';
import { registerInputRequiredTools } from './conformance-features-input-required.mjs';
import { registerTools, REQUEST_STATES } from './conformance-features-tools.mjs';
import { sendWebResponse, webRequestOf } from './web-exchange.mjs';

/** A server of everything; a 2025 (`legacy`) one also takes subscriptions, which the 2026-07-28 revision removed. */
function mcpServer(legacy) {
  // `logging`: its log messages are sent (at the session's level at 2025, the request's `_meta` level at 2026-07-28).
  const server = new McpServer(
    { name: 'conformance-features', version: '1.0.0' },
    {
      capabilities: { logging: {}, tools: { listChanged: true }, prompts: { listChanged: true } },
      requestState: { verify: REQUEST_STATES.verify },
    },
  );
  registerResources(server);
  registerPrompts(server);
  registerTools(server, listChanges);
  registerInputRequiredTools(server);
  if (legacy) registerSubscriptions(server);
  return server;
}

const modern = createMcpHandler(() => mcpServer(false), { legacy: 'reject', responseMode: 'auto' });

/** The 2025 sessions' servers, by session id; a DELETE removes one. */
const sessions = new Map();

/** Tells every listener that a list changed: 2026-07-28 subscriptions/listen streams, and each 2025 session. */
const listChanges = {
  toolsChanged() {
    modern.notify.toolsChanged();
    for (const { server } of sessions.values()) server.sendToolListChanged();
  },
  promptsChanged() {
    modern.notify.promptsChanged();
    for (const { server } of sessions.values()) server.sendPromptListChanged();
  },
};

/** The 2025 serving: the request's session, a new one for an initialize, 404 to a session it does not know. */
async function legacyResponse(request) {
  const id = request.headers.get('mcp-session-id');
  const session = id ? sessions.get(id) : undefined;
  if (session) return session.transport.handleRequest(request);
  if (id) return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }, { status: 404 });
  const server = mcpServer(true);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sessionId) => sessions.set(sessionId, { transport, server }),
    onsessionclosed: (sessionId) => sessions.delete(sessionId),
  });
  await server.connect(transport);
  return transport.handleRequest(request);
}

const http = createServer(async (req, res) => {
  const request = await webRequestOf(req);
  // dns-rebinding-protection: a foreign Host or Origin is refused before anything is served.
  const refused =
    hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? originValidationResponse(request, localhostAllowedOrigins());
  await sendWebResponse(res, refused ?? ((await isLegacyRequest(request)) ? await legacyResponse(request) : await modern.fetch(request)));
});

http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on('SIGTERM', () => {
  http.close(() => process.exit(0));
  // A 2025 session's notification stream stays open until its caller goes: closed here.
  http.closeAllConnections();
});
