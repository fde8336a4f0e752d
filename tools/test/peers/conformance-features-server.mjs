#!/usr/bin/env node
/**
 * A Streamable HTTP MCP server built with the SDK (@modelcontextprotocol/server) on node:http, port 0,
 * stateless, serving exactly the resources and prompts the conformance suites' resources-* and prompts-*
 * scenarios ask their reference server for (their URIs and names, read from the suites' scenario source),
 * and the tools of tools-call-with-progress and tools-call-with-logging:
 * so that those scenarios can run against a gateway that has this server behind it as an `mcpServer`
 * bundle without a prefix. Prints "LISTENING <url>" on stdout once it accepts connections.
 */
import { createServer } from 'node:http';

import { acceptedContent, createMcpHandler, inputRequired, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** A 1x1 transparent PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function mcpServer() {
  // `logging`: its log messages are sent (at the session's level at 2025, the request's `_meta` level at 2026-07-28).
  const server = new McpServer({ name: 'conformance-features', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'A static text resource', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'A static binary resource', mimeType: 'image/png' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
    }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { description: 'A resource template with one parameter', mimeType: 'application/json' },
    async (uri, { id }) => ({
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) },
      ],
    }),
  );
  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt without arguments' }, async () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'A prompt with arguments', argsSchema: z.object({ arg1: z.string(), arg2: z.string() }) },
    async ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'A prompt with an embedded resource', argsSchema: z.object({ resourceUri: z.string() }) },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  // tools-call-with-progress (issue 44): three progress notifications on the call's stream, then the result.
  server.registerTool('test_tool_with_progress', { description: 'A tool that reports its progress' }, async (ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progressToken !== undefined)
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { content: [{ type: 'text', text: 'Progress test completed' }] };
  });
  // tools-call-with-logging (issue 44): three info messages on the call's stream, ~50 ms apart, then the result.
  server.registerTool('test_tool_with_logging', { description: 'A tool that logs while it runs' }, async (ctx) => {
    for (const [index, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      await ctx.mcpReq.log('info', data);
    }
    return { content: [{ type: 'text', text: 'Logging test completed' }] };
  });
  // input-required-result-non-tool-request (issue 44): a prompt that asks for the context first (an input_required
  // round at 2026-07-28, as the suite's reference server does), then is given.
  server.registerPrompt('test_input_required_result_prompt', { description: 'A prompt that asks for its context first' }, async (ctx) => {
    const context = acceptedContent(ctx.mcpReq.inputResponses, 'user_context')?.context;
    if (typeof context === 'string')
      return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }] };
    return inputRequired({
      inputRequests: {
        user_context: inputRequired.elicit({
          message: 'What context should the prompt use?',
          requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
        }),
      },
    });
  });
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with image content' }, async () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined;
}

/**
 * The SDK's 2026-07-28 entry, as the suites' reference server serves: a fresh server per request, with
 * 2025 requests served statelessly beside it (a gateway in front, era `auto`, speaks 2026-07-28 to it).
 */
const handler = createMcpHandler(() => mcpServer(), { responseMode: 'auto' });

const http = createServer(async (req, res) => {
  const body = await readBody(req);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
  // Event-stream answers, passed on as they come: a call's progress goes on its stream before the result.
  const response = await handler.fetch(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
});

http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on('SIGTERM', () => http.close(() => process.exit(0)));
