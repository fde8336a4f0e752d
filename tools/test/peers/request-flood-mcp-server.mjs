#!/usr/bin/env node
/**
 * A Streamable HTTP MCP server (2025 era, node:http, no SDK) that floods its client with requests during a
 * call, as issue 43's third attack run did (item 9, "relayed server-request floods"). Its one tool:
 *   flood  {count}: answers the call with an event stream that carries `count` sampling/createMessage
 *          requests at once, waits until each is answered (a result or an error, POSTed back as the
 *          protocol says), then ends the stream with the call's result: JSON text
 *          {"answered": n, "refused": n, "refusal": <the first error>}.
 * Prints "request-flood MCP server listening on <url>" once it accepts connections.
 */
import { answerJson, serveBareMcp } from './bare-mcp-http.mjs';

const SESSION = 'flood-session';
const FLOOD_TOOL = { name: 'flood', inputSchema: { type: 'object', properties: { count: { type: 'integer' } } } };
/** The answers each request of a flood is waiting for, by request id. */
const waiting = new Map();

/** Sends `count` requests on the call's stream, then the call's result once every one is answered. */
function flood(res, callId, count) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const tally = { answered: 0, refused: 0, refusal: undefined };
  let left = count;
  for (let i = 1; i <= count; i++) {
    const id = `flood-${callId}-${i}`;
    waiting.set(id, (message) => {
      if ('result' in message) tally.answered++;
      else {
        tally.refused++;
        tally.refusal ??= message.error;
      }
      if (--left > 0) return;
      const result = { content: [{ type: 'text', text: JSON.stringify(tally) }] };
      res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: callId, result })}\n\n`);
    });
    const params = { messages: [{ role: 'user', content: { type: 'text', text: `question ${i}` } }], maxTokens: 10 };
    res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, method: 'sampling/createMessage', params })}\n\n`);
  }
}

serveBareMcp('request-flood MCP server', (message, _req, res) => {
  if (message.method === undefined) {
    // A response of the client to one of our requests.
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
    return void res.writeHead(202).end();
  }
  switch (message.method) {
    case 'initialize':
      return answerJson(
        res,
        message,
        {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'request-flood', version: '1' },
        },
        SESSION,
      );
    case 'tools/list':
      return answerJson(res, message, { tools: [FLOOD_TOOL] });
    case 'tools/call':
      return flood(res, message.id, Number(message.params.arguments?.count ?? 1));
    default:
      return answerJson(res, message, undefined);
  }
});
