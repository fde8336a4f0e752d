import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type Everything, startEverything } from '@toolmesh/test-peers/mcp-servers';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import type { AuditRequestEvent } from '../audit/audit-event';
import { type OtlpReceiver, plainValue, startOtlpReceiver } from '../test-support/otlp-receiver';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

/**
 * The audit trail (issue 46), end to end over loopback: a gateway with authentication, tool policies, a
 * rate limit and search_tools, in front of the sample tool service and server-everything (prompts and
 * resources). Every audited request, allowed or refused at each check, is one JSON line in the trail's own
 * file and one OpenTelemetry log record at the collector tracing is configured with; neither those nor the
 * boundary logs carry the subject, the token or an argument's value.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';
const SUBJECT_KEY = 'audit-e2e-subject-key-0123456789abcdef';
/** What must never be written: the subject, and a value every request's arguments carry. */
const SUBJECT = 'employee-7731@example.test';
const ARGUMENT_VALUE = 'Plaintext-Argument-5f3a';
const MODERN = '2026-07-28';
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

let issuer: TokenIssuer;
let tools: SampleToolService;
let everything: Everything;
let gw: TestGateway;
let auditFile: string;
/** The collector OpenTelemetry is configured with: the trail's events are also its log records (ADR 0030). */
let collector: OtlpReceiver;
const tokens: string[] = [];

beforeAll(async () => {
  [issuer, tools, everything, collector] = await Promise.all([
    startTokenIssuer(AUDIENCE),
    startSampleToolService(),
    startEverything(),
    startOtlpReceiver(),
  ]);
  auditFile = path.join(mkdtempSync(path.join(tmpdir(), 'audit-e2e-')), 'audit.jsonl');
  gw = await startTestGateway(
    tools.url,
    (config) => {
      config.mcp.toolSearch = true;
      config.mcp.bundles.push({ name: 'everything', namePrefix: 'ev_', mcpServer: { url: everything.url } });
      config.auth = {
        ...authTrusting(issuer, AUDIENCE),
        algorithms: ['RS256'],
        scopesSupported: ['tools', 'customers:read'],
        toolPolicies: [{ tools: 'customer_*', scopes: ['customers:read'] }],
        maxCachedTokens: 100,
      };
      config.mcp.endpoints = [
        {
          name: 'support',
          serve: [{ tools: 'echo_text' }, { tools: 'customer_lookup' }],
          overrides: { customer_lookup: { name: 'find_customer' } },
        },
      ];
      config.rateLimits = { perTool: [{ tools: 'product_search', points: 1, durationSeconds: 600 }] };
      config.audit = { enabled: true, file: auditFile, subjectKey: { env: 'AUDIT_KEY' }, maxBufferedBytes: 1_048_576 };
    },
    { env: { AUDIT_KEY: SUBJECT_KEY, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } },
  );
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await Promise.all([tools?.stop(), everything?.stop(), issuer?.close(), collector?.close()]);
});

async function bearer(scope = 'tools customers:read'): Promise<string> {
  const token = await issuer.sign({ sub: SUBJECT, client_id: 'audit-e2e-client', scope });
  tokens.push(token);
  return `Bearer ${token}`;
}

/** One request, with a request id of its own to find its event by; the status and body as answered. */
async function send(
  method: string,
  params: Record<string, unknown>,
  authorization: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ requestId: string; status: number; body: { result?: { isError?: boolean }; error?: { code: number } } }> {
  const requestId = randomUUID();
  const res = await gw.post(
    { jsonrpc: '2.0', id: 1, method, params },
    { 'x-request-id': requestId, ...(authorization !== undefined && { authorization }), ...headers },
  );
  return { requestId, status: res.status, body: (await res.json()) as never };
}

/** The events written so far (the file is written at most 20 ms after an answer). */
async function auditEvents(): Promise<AuditRequestEvent[]> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  return readFileSync(auditFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditRequestEvent);
}

async function theEventOf(requestId: string): Promise<AuditRequestEvent> {
  const events = (await auditEvents()).filter((event) => event.requestId === requestId);
  expect(events).toHaveLength(1);
  return events[0];
}

const hashed = createHmac('sha256', SUBJECT_KEY).update(SUBJECT).digest('hex');
const caller = { caller: hashed, clientId: 'audit-e2e-client' };
const common = { type: 'request', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), guid: expect.any(String), endpoint: '/mcp' };
const measured = { durationMs: expect.any(Number), bytesIn: expect.any(Number), bytesOut: expect.any(Number) };
const authorized = { stage: 'authorization', outcome: 'allow' };
const withinRateLimits = { stage: 'rateLimit', outcome: 'allow' };
const validArguments = { stage: 'validation', outcome: 'allow' };

describe('one audit event per audited request, allowed or refused', () => {
  it('a tool call: each check allowed, the result', async () => {
    const sent = await send('tools/call', { name: 'echo_text', arguments: { text: ARGUMENT_VALUE } }, await bearer());
    expect(sent.status).toBe(200);
    expect(await theEventOf(sent.requestId)).toEqual({
      ...common,
      requestId: sent.requestId,
      method: 'tools/call',
      bundle: 'sample',
      tool: 'echo_text',
      ...caller,
      decisions: [authorized, withinRateLimits, validArguments],
      outcome: { kind: 'result', status: 200 },
      ...measured,
    });
  });

  it('a call over its rate limit: 429, the limit that refused it', async () => {
    const args = { name: 'product_search', arguments: { query: ARGUMENT_VALUE } };
    expect((await send('tools/call', args, await bearer())).status).toBe(200);
    const refused = await send('tools/call', args, await bearer());
    expect(refused.status).toBe(429);
    expect(await theEventOf(refused.requestId)).toMatchObject({
      tool: 'product_search',
      ...caller,
      decisions: [authorized, { stage: 'rateLimit', outcome: 'deny', reason: 'tool' }],
      outcome: { kind: 'error', status: 429, code: refused.body.error?.code },
    });
  });

  it('a call without the tool scope: 403, authorization denied', async () => {
    const refused = await send('tools/call', { name: 'customer_lookup', arguments: { customerId: 'C1001' } }, await bearer('tools'));
    expect(refused.status).toBe(403);
    expect(await theEventOf(refused.requestId)).toMatchObject({
      bundle: 'sample',
      tool: 'customer_lookup',
      decisions: [{ stage: 'authorization', outcome: 'deny', reason: 'insufficient_scope' }],
      outcome: { kind: 'error', status: 403, code: -32600 },
    });
  });

  it('a call with invalid arguments: validation denied, a tool error', async () => {
    const refused = await send('tools/call', { name: 'customer_lookup', arguments: { customerId: ARGUMENT_VALUE } }, await bearer());
    expect(refused.body.result?.isError).toBe(true);
    expect(await theEventOf(refused.requestId)).toMatchObject({
      tool: 'customer_lookup',
      decisions: [authorized, withinRateLimits, { stage: 'validation', outcome: 'deny', reason: 'invalid_arguments' }],
      outcome: { kind: 'toolError', status: 200 },
    });
  });

  it("a tool the catalogue does not have: its name, the caller's text, is not written", async () => {
    const unknown = await send('tools/call', { name: 'no_such_tool', arguments: { text: ARGUMENT_VALUE } }, await bearer());
    const event = await theEventOf(unknown.requestId);
    expect(event).toMatchObject({ method: 'tools/call', decisions: [], outcome: { kind: 'error', code: unknown.body.error?.code } });
    expect(event).not.toHaveProperty('tool');
  });

  it('search_tools, and search_tools with invalid arguments', async () => {
    const found = await send('tools/call', { name: 'search_tools', arguments: { query: ARGUMENT_VALUE } }, await bearer());
    expect(await theEventOf(found.requestId)).toMatchObject({
      tool: 'search_tools',
      decisions: [withinRateLimits, validArguments],
      outcome: { kind: 'result', status: 200 },
    });
    const refused = await send('tools/call', { name: 'search_tools', arguments: { limit: ARGUMENT_VALUE } }, await bearer());
    const event = await theEventOf(refused.requestId);
    expect(event).toMatchObject({ tool: 'search_tools', outcome: { kind: 'toolError' } });
    expect(event.decisions).toEqual([withinRateLimits, { stage: 'validation', outcome: 'deny', reason: 'invalid_arguments' }]);
    expect(event).not.toHaveProperty('bundle');
  });

  it("prompts/get and resources/read: the bundle, the prompt's name, a resource URI's scheme only", async () => {
    const prompt = await send('prompts/get', { name: 'ev_args-prompt', arguments: { city: ARGUMENT_VALUE } }, await bearer());
    expect(prompt.status).toBe(200);
    expect(await theEventOf(prompt.requestId)).toEqual({
      ...common,
      requestId: prompt.requestId,
      method: 'prompts/get',
      bundle: 'everything',
      prompt: 'ev_args-prompt',
      ...caller,
      decisions: [],
      outcome: { kind: 'result', status: 200 },
      ...measured,
    });
    const read = await send('resources/read', { uri: 'everything+demo://resource/dynamic/text/3' }, await bearer());
    expect(read.body.result).toBeDefined();
    expect(await theEventOf(read.requestId)).toMatchObject({
      method: 'resources/read',
      bundle: 'everything',
      resource: 'everything+demo:',
      outcome: { kind: 'result', status: 200 },
    });
  });

  it('401 at the door: a 2025 request without its method (its body is never read), a 2026 one with the method and tool it names', async () => {
    const legacy = await send('tools/call', { name: 'echo_text', arguments: { text: ARGUMENT_VALUE } }, undefined);
    expect(legacy.status).toBe(401);
    const event = await theEventOf(legacy.requestId);
    expect(event).toEqual({
      ...common,
      requestId: legacy.requestId,
      decisions: [{ stage: 'authorization', outcome: 'deny', reason: 'no_token' }],
      outcome: { kind: 'refused', status: 401 },
      durationMs: expect.any(Number),
      bytesIn: expect.any(Number),
    });

    const modern = await send(
      'tools/call',
      { name: 'echo_text', arguments: { text: ARGUMENT_VALUE }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
      `Bearer not-a-token-${ARGUMENT_VALUE}`,
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo_text' },
    );
    expect(modern.status).toBe(401);
    expect(await theEventOf(modern.requestId)).toMatchObject({
      method: 'tools/call',
      bundle: 'sample',
      tool: 'echo_text',
      decisions: [{ stage: 'authorization', outcome: 'deny' }],
      outcome: { kind: 'refused', status: 401 },
    });
  });

  /** A 2025 `tools/call` to the curated endpoint `/mcp/support`. */
  async function callSupport(name: string, args: Record<string, unknown>): Promise<{ requestId: string; status: number }> {
    const requestId = randomUUID();
    const res = await fetch(gw.url.replace(/\/mcp$/, '/mcp/support'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'x-request-id': requestId,
        authorization: await bearer(),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    await res.body?.cancel();
    return { requestId, status: res.status };
  }

  it('a curated endpoint: its path', async () => {
    const sent = await callSupport('echo_text', { text: ARGUMENT_VALUE });
    expect(sent.status).toBe(200);
    expect(await theEventOf(sent.requestId)).toMatchObject({ endpoint: '/mcp/support', tool: 'echo_text', outcome: { kind: 'result' } });
  });

  it("a curated endpoint's alias: the catalogue tool and its bundle; the alias's original name there, unknown, is not written", async () => {
    const aliased = await callSupport('find_customer', { customerId: 'C1001' });
    expect(aliased.status).toBe(200);
    expect(await theEventOf(aliased.requestId)).toMatchObject({
      endpoint: '/mcp/support',
      bundle: 'sample',
      tool: 'customer_lookup',
      outcome: { kind: 'result' },
    });
    const original = await theEventOf((await callSupport('customer_lookup', { customerId: 'C1001' })).requestId);
    expect(original).toMatchObject({ endpoint: '/mcp/support', outcome: { kind: 'error' } });
    expect(original).not.toHaveProperty('tool');
    expect(original).not.toHaveProperty('bundle');
  });

  it('requests that are not audited write nothing', async () => {
    const before = (await auditEvents()).length;
    await send('tools/list', {}, await bearer());
    expect(await auditEvents()).toHaveLength(before);
  });

  it("each event is also one OpenTelemetry log record: the file's fields as its body, a severity, a traced call's trace and span ids", async () => {
    const traced = await send('tools/call', { name: 'echo_text', arguments: { text: ARGUMENT_VALUE } }, await bearer(), {
      traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
    });
    expect(traced.status).toBe(200);
    const events = await auditEvents();
    // Exported in batches at most a second after they were emitted.
    const deadline = Date.now() + 10_000;
    while (collector.logRecords.length < events.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const records = collector.logRecords;
    const byLine = (items: unknown[]) => items.map((item) => JSON.stringify(item)).sort();
    expect(byLine(records.map((record) => plainValue(record.body)))).toEqual(byLine(events));
    const recordOf = (requestId: string) =>
      records.find((record) => (plainValue(record.body) as AuditRequestEvent).requestId === requestId);
    const record = recordOf(traced.requestId);
    expect(record).toMatchObject({ eventName: 'toolmesh.audit.request', severityText: 'INFO', traceId: TRACE_ID });
    expect(record?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(record?.spanId).not.toBe(CALLER_SPAN); // the gateway's request span, under the caller's
    const refused = events.find((event) => event.outcome.status === 401);
    expect(recordOf(refused?.requestId ?? '')).toMatchObject({ severityText: 'WARN' });
    expect(recordOf(refused?.requestId ?? '')).not.toHaveProperty('traceId');
  });

  it('neither the trail, its log records nor the boundary logs carry the subject, a token or an argument value', async () => {
    const written = `${readFileSync(auditFile, 'utf8')}\n${collector.received()}\n${gw.logs()}`;
    expect(written).not.toContain(SUBJECT);
    expect(written).not.toContain(ARGUMENT_VALUE);
    for (const token of tokens) expect(written).not.toContain(token);
    expect(written).not.toContain(SUBJECT_KEY);
  });
});
