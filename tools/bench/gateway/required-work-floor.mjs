// Reference point, not a product: a baseline's forwarding (the minimal proxy's toward a tool service, the MCP
// forwarder's toward an MCP server) plus, written inline in one request handler, the work the requirements
// ask of the gateway for every tools/call. What the gateway costs beyond this floor is what its own structure
// costs; what the floor costs beyond the baseline is what the required work costs, however it is written
// (docs/benchmarks.md, "The required-work floor"). The work, each part named so that a run can leave it out
// (`FLOOR_WITHOUT=logs,metrics`):
//   correlation  `guid` and `x-request-id` read and checked, or made (randomUUID); sent upstream as headers
//                (and in `_meta` to an MCP server), and returned (SPEC G2)
//   checks       Origin, Content-Type, Accept and MCP-Protocol-Version checked, the body bounded (G4, G5, G24)
//   envelope     messages parsed refusing `__proto__` keys (secure-json-parse), the request's JSON-RPC
//                envelope and an MCP answer's id checked (G6)
//   validation   the tool looked up, its arguments validated by its compiled JSON Schema (ajv) (G9)
//   deadline     a deadline timer per call; a client that hangs up cancels the upstream request (G12, G26)
//   breaker      a failure count that opens a circuit for the upstream (issue 28)
//   metrics      per tool, a counter by outcome and a duration histogram (G23)
//   logs         three key=value lines per call (request received, tool call completed, response
//                completed), batched into one write every 20 ms (G3)
//   auth         with FLOOR_ISSUER: the bearer token verified once (jose, the issuer's JWKS), then found in a
//                cache per token; its expiry and scope checked, its subject sent as `x-user-subject` (G27)
//   limits       with FLOOR_ISSUER: a rate limit per caller and one per tool (rate-limiter-flexible, in
//                memory), none ever reached (G27)
// Not in the floor, though the gateway does them: relaying an MCP server's requests during a call, renewing
// a 2025 session, per-tool concurrency limits, catalogue generations, idempotency keys, tracing. The tools
// and their schemas are read once at start (the tool service's manifest, or the MCP server's `tools/list`);
// toward a 2025 MCP server one session is opened at start. Prints "listening on <url>" once it accepts
// connections. Environment: TOOL_SERVICE_URL or MCP_SERVER_URL; FLOOR_ISSUER and FLOOR_AUDIENCE; FLOOR_WITHOUT.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import Ajv from 'ajv';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import secureJson from 'secure-json-parse';
import { Agent } from 'undici';

const WORK = ['correlation', 'checks', 'envelope', 'validation', 'deadline', 'breaker', 'metrics', 'logs', 'auth', 'limits'];
const without = new Set((process.env.FLOOR_WITHOUT ?? '').split(',').filter(Boolean));
for (const part of without) if (!WORK.includes(part)) throw new Error(`FLOOR_WITHOUT: unknown part ${part}; the parts: ${WORK.join(', ')}`);
const issuer = process.env.FLOOR_ISSUER;
const does = Object.fromEntries(
  WORK.map((part) => [part, !without.has(part) && (issuer !== undefined || (part !== 'auth' && part !== 'limits'))]),
);

const mcpServer = process.env.MCP_SERVER_URL && new URL(process.env.MCP_SERVER_URL);
const upstream = mcpServer || new URL(process.env.TOOL_SERVICE_URL);
const agent = new Agent({ connections: 128 });
const MODERN = '2026-07-28';
const SUPPORTED_VERSIONS = new Set(['2025-03-26', '2025-06-18', '2025-11-25', MODERN]);
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_BODY_BYTES = 1_048_576;
const DEADLINE_MS = 30_000;
const NO_PROTOTYPE_KEYS = { protoAction: 'error', constructorAction: 'error' };
const parse = (text) => (does.envelope ? secureJson.parse(text, undefined, NO_PROTOTYPE_KEYS) : JSON.parse(text));
let nextId = 0;

/**
 * What undici's request listens to for an abort: one listener, no `EventTarget`. An `AbortController` per
 * call costs about 8 us on Node 20 (docs/benchmarks.md, "Federated tool calls"); the gateway's own
 * `Cancellation` is as cheap as this.
 */
class CallCancellation {
  aborted = false;
  reason = undefined;
  #listener;
  on(_event, listener) {
    this.#listener = listener;
  }
  once(_event, listener) {
    this.#listener = listener;
  }
  removeListener() {
    this.#listener = undefined;
  }
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = Object.assign(new Error('the call was cancelled'), { name: 'AbortError' });
    this.#listener?.();
  }
}

async function post(path, body, headers, signal) {
  const reply = await agent.request({
    origin: upstream.origin,
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
  return { status: reply.statusCode, sessionId: reply.headers['mcp-session-id'], text: await reply.body.text() };
}

const MCP_ACCEPT = 'application/json, text/event-stream';
let sessionId;
/** The upstream's tools, each with its compiled schema: the tool service's manifest, or the MCP server's list. */
async function loadTools() {
  let listed;
  if (mcpServer) {
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'required-work-floor', version: '1' } };
    ({ sessionId } = await post(upstream.pathname, { jsonrpc: '2.0', id: 0, method: 'initialize', params }, { accept: MCP_ACCEPT }));
    const session = { accept: MCP_ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await post(upstream.pathname, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    listed = JSON.parse((await post(upstream.pathname, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, session)).text).result.tools;
  } else {
    listed = (await (await fetch(new URL('/tool-manifest', upstream))).json()).tools;
  }
  const ajv = new Ajv();
  return new Map(listed.map((tool) => [tool.name, { endpoint: tool.endpoint, validate: ajv.compile(tool.inputSchema) }]));
}
const tools = await loadTools();

const breaker = { failures: 0, openUntil: 0 };
const BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 10_000];
const metrics = new Map();
function observe(tool, durationMs, outcome) {
  let series = metrics.get(tool);
  if (!series) metrics.set(tool, (series = { outcomes: new Map(), buckets: new Array(BUCKETS_MS.length + 1).fill(0), sum: 0 }));
  series.outcomes.set(outcome, (series.outcomes.get(outcome) ?? 0) + 1);
  let bucket = 0;
  while (bucket < BUCKETS_MS.length && durationMs > BUCKETS_MS[bucket]) bucket += 1;
  series.buckets[bucket] += 1;
  series.sum += durationMs;
}

let batch = [];
let flushTimer;
let stampedAt = 0;
let stamp = '';
function log(event, fields, ids) {
  const now = Date.now();
  if (now !== stampedAt) [stampedAt, stamp] = [now, new Date(now).toISOString()];
  let line = `${stamp} level=info event=${event}`;
  for (const key of Object.keys(fields)) line += ` ${key}=${fields[key]}`;
  batch.push(`${line} guid=${ids.guid} requestId=${ids.requestId}\n`);
  flushTimer ??= setTimeout(flushLog, 20);
}
function flushLog() {
  flushTimer = undefined;
  process.stdout.write(batch.join(''));
  batch = [];
}

const jwks = issuer && createRemoteJWKSet(new URL(`${issuer}/jwks`));
/** Verified tokens: the token, its subject and its expiry (s). */
const verified = new Map();
/** The caller's subject, or undefined when its token is missing, invalid, expired or lacks the scope. */
async function callerOf(authorization) {
  if (!authorization?.startsWith('Bearer ')) return undefined;
  const token = authorization.slice(7);
  let caller = verified.get(token);
  if (caller === undefined) {
    const { payload } = await jwtVerify(token, jwks, { issuer, audience: process.env.FLOOR_AUDIENCE, algorithms: ['RS256'] });
    caller = { subject: payload.sub, expiresAt: payload.exp, scopes: new Set(String(payload.scope).split(' ')) };
    verified.set(token, caller);
  }
  return caller.expiresAt > Date.now() / 1000 && caller.scopes.has('tools') ? caller.subject : undefined;
}
const perCaller = new RateLimiterMemory({ points: 1e9, duration: 60, keyPrefix: 'caller' });
const perTool = new RateLimiterMemory({ points: 1e9, duration: 60, keyPrefix: 'tool' });

function reply(res, status, message, ids) {
  const body = JSON.stringify(message);
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  if (ids.guid !== undefined) [headers.guid, headers['x-request-id']] = [ids.guid, ids.requestId];
  res.writeHead(status, headers).end(body);
}
const failure = (id, code, message) => ({ jsonrpc: '2.0', id, error: { code, message } });
const toolError = (id, text) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } });

/** The request's correlation ids, or undefined when one it sent is malformed. */
function correlationOf(headers) {
  const { guid = randomUUID(), 'x-request-id': requestId = randomUUID() } = headers;
  return CORRELATION_ID.test(guid) && CORRELATION_ID.test(requestId) ? { guid, requestId } : undefined;
}

/** Why the request's headers are refused, or undefined. */
function headersProblem(headers) {
  if (headers.origin !== undefined && !headers.origin.startsWith('http://127.0.0.1')) return 'origin not allowed';
  if (!headers['content-type']?.startsWith('application/json')) return 'content type must be application/json';
  if (!headers.accept?.includes('application/json')) return 'Accept must include application/json';
  if (!SUPPORTED_VERSIONS.has(headers['mcp-protocol-version'])) return 'unsupported MCP-Protocol-Version';
  return undefined;
}

function isRequest(message) {
  return (
    typeof message === 'object' &&
    message !== null &&
    message.jsonrpc === '2.0' &&
    typeof message.method === 'string' &&
    (typeof message.id === 'string' || typeof message.id === 'number') &&
    typeof message.params === 'object' &&
    message.params !== null
  );
}

/** The upstream request of a call: a POST of the arguments to the tool's endpoint, or an MCP `tools/call`. */
function upstreamRequest(req, name, tool, args, ids, subject) {
  const headers = {};
  if (does.correlation) [headers.guid, headers['x-request-id']] = [ids.guid, ids.requestId];
  if (subject !== undefined) headers['x-user-subject'] = subject;
  if (!mcpServer) return { path: tool?.endpoint ?? '/tools/echo', body: args, headers };
  const modern = req.headers['mcp-protocol-version'] === MODERN;
  headers.accept = MCP_ACCEPT;
  headers['mcp-protocol-version'] = modern ? MODERN : '2025-11-25';
  if (modern) [headers['mcp-method'], headers['mcp-name']] = ['tools/call', name];
  else headers['mcp-session-id'] = sessionId;
  const params = { name, arguments: args };
  if (does.correlation) params._meta = { 'io.toolmesh/guid': ids.guid, 'io.toolmesh/requestId': ids.requestId };
  const id = `f${(nextId += 1)}`;
  return { path: upstream.pathname, body: { jsonrpc: '2.0', id, method: 'tools/call', params }, headers, id };
}

/** The call's result from the upstream's reply: the MCP server's result, or the tool service's data as text. */
function resultOf(request, status, text) {
  const answer = parse(text);
  if (!mcpServer) return { content: [{ type: 'text', text: JSON.stringify(answer.data) }], isError: status >= 300 };
  if (does.envelope && (status !== 200 || answer.id !== request.id || typeof answer.result !== 'object')) throw new Error('not an answer');
  return answer.result;
}

async function admitted(req, name) {
  const subject = does.auth ? await callerOf(req.headers.authorization).catch(() => undefined) : undefined;
  if (does.auth && subject === undefined) return { refusal: 401 };
  if (does.limits) {
    await perCaller.consume(subject ?? req.socket.remoteAddress);
    await perTool.consume(name);
  }
  return { subject };
}

async function call(req, res, message, ids, started) {
  const { name, arguments: args = {} } = message.params;
  const tool = tools.get(name);
  if (does.validation && (tool === undefined || !tool.validate(args)))
    return reply(res, 200, toolError(message.id, 'invalid arguments'), ids);
  const { refusal, subject } = does.auth || does.limits ? await admitted(req, name) : {};
  if (refusal) return reply(res, refusal, failure(message.id, -32001, 'unauthorized'), ids);
  if (does.breaker && breaker.openUntil > Date.now()) return reply(res, 200, toolError(message.id, 'the upstream is failing'), ids);
  const request = upstreamRequest(req, name, tool, args, ids, subject);
  let signal;
  let deadline;
  let onHangUp;
  if (does.deadline) {
    signal = new CallCancellation();
    deadline = setTimeout(() => signal.abort(), DEADLINE_MS);
    onHangUp = () => signal.abort();
    res.once('close', onHangUp);
  }
  const toolStarted = performance.now();
  try {
    const { status, text } = await post(request.path, request.body, request.headers, signal);
    clearTimeout(deadline);
    const result = resultOf(request, status, text);
    breaker.failures = 0;
    const durationMs = Math.round(performance.now() - toolStarted);
    const outcome = result.isError === true ? 'is_error' : 'ok';
    if (does.metrics) observe(name, durationMs, outcome);
    if (does.logs) log('tool_call_completed', { tool: name, status: outcome, durationMs }, ids);
    if (onHangUp) res.off('close', onHangUp);
    reply(res, 200, { jsonrpc: '2.0', id: message.id, result }, ids);
    if (does.logs)
      log('mcp_http_response_completed', { method: 'tools/call', status: 200, durationMs: Math.round(performance.now() - started) }, ids);
  } catch (error) {
    clearTimeout(deadline);
    if (error.name === 'AbortError') return; // the client hung up: nobody is left to answer
    if (does.breaker && (breaker.failures += 1) >= 5) breaker.openUntil = Date.now() + 5000;
    if (!res.headersSent) reply(res, 200, toolError(message.id, 'the upstream failed'), ids);
  }
}

const server = createServer((req, res) => {
  const started = performance.now();
  const ids = does.correlation ? correlationOf(req.headers) : {};
  if (ids === undefined) return reply(res, 400, failure(null, -32600, 'malformed correlation header'), {});
  const problem = does.checks ? headersProblem(req.headers) : undefined;
  if (problem) return reply(res, 400, failure(null, -32600, problem), ids);
  const chunks = [];
  let bytes = 0;
  req.on('data', (chunk) => {
    bytes += chunk.length;
    if (does.checks && bytes > MAX_BODY_BYTES) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    let message;
    try {
      message = parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return reply(res, 400, failure(null, -32700, 'Parse error'), ids);
    }
    if (does.envelope && !isRequest(message)) return reply(res, 400, failure(null, -32600, 'Invalid Request'), ids);
    if (does.logs) log('mcp_http_request_received', { method: message.method }, ids);
    void call(req, res, message, ids, started);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`required-work floor listening on http://127.0.0.1:${server.address().port}/mcp`));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections(); // kept-alive clients would hold it for their keep-alive timeout
});
