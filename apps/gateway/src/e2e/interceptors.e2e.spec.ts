import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import type { AuditRequestEvent } from '../audit/audit-event';
import type { InterceptorSettings } from '../config/interceptor-settings';
import { useGatewayWithSampleService } from '../test-support/test-gateway';

/** Planted in a result (all made up): an AWS access key id, a GitHub token, an e-mail address. */
const AWS_KEY = 'AKIA' + 'QW3RTY7UIOPASDFG';
const GITHUB_TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const EMAIL = 'jane.doe@example.com';
const PLANTED = `deploy with ${AWS_KEY} and ${GITHUB_TOKEN}, questions to ${EMAIL}`;

/** What the guardrail service was sent, per request. */
interface Asked {
  readonly interceptor: string;
  readonly phase: string;
  readonly payload: { name: string; arguments: Record<string, unknown> };
  readonly context: { principal: unknown; guid: string };
  readonly headers: IncomingMessage['headers'];
}

/** The gateway's credential for the guardrail: the whole `Authorization` value, from the environment (`webhook.headers`). */
const GUARDRAIL_AUTHORIZATION = 'Bearer guardrail-e2e-credential-7c1d';

/**
 * A guardrail service on loopback: refuses a request without the gateway's credential (401), denies customer
 * C1001 (any interceptor), allows everything else.
 */
async function startGuardrail(): Promise<{ url: string; asked: Asked[]; server: Server }> {
  const asked: Asked[] = [];
  const server = createServer((req, res) => {
    if (req.headers.authorization !== GUARDRAIL_AUTHORIZATION) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthenticated"}');
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const request = JSON.parse(body) as Omit<Asked, 'headers'>;
      asked.push({ ...request, headers: req.headers });
      const denied = request.payload.arguments.customerId === 'C1001';
      const reply = denied
        ? { type: 'validation', valid: false, messages: [{ message: 'customer C1001 is under legal hold' }] }
        : { type: 'validation', valid: true };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/verdict`, asked, server };
}

/** A loopback address nothing listens on: a guardrail that is down. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/verdict`;
}

describe('interceptors on tool calls (issue 46, SEP-2624)', () => {
  let guardrail: Awaited<ReturnType<typeof startGuardrail>>;
  let down: string;
  // Before the gateway's start (hooks run in order): its configuration names these addresses.
  beforeAll(async () => {
    guardrail = await startGuardrail();
    down = await deadUrl();
  });
  afterAll(async () => {
    await new Promise((resolve) => guardrail.server.close(resolve));
  });
  const credential = { Authorization: { env: 'GUARDRAIL_AUTHORIZATION' } };
  const interceptors = (): InterceptorSettings[] => [
    { name: 'legal-hold', kind: 'webhook', tools: ['customer_lookup'], webhook: { url: guardrail.url, headers: credential } },
    {
      name: 'legal-hold-trial',
      kind: 'webhook',
      mode: 'audit',
      tools: ['order_search'],
      webhook: { url: guardrail.url, headers: credential },
    },
    {
      name: 'legal-hold-unset',
      kind: 'webhook',
      tools: ['slow_operation'],
      webhook: { url: guardrail.url, headers: { Authorization: { env: 'GUARDRAIL_UNSET' } } },
    },
    { name: 'down-open', kind: 'webhook', failOpen: true, timeoutMs: 1000, tools: ['product_search'], webhook: { url: down } },
    { name: 'down-closed', kind: 'webhook', timeoutMs: 1000, tools: ['get_service_info'], webhook: { url: down } },
    {
      name: 'no-sql',
      kind: 'refuse',
      tools: ['echo_text'],
      refuse: [
        { path: '$.text', pattern: 'drop\\s+table', ignoreCase: true },
        // Exponential on V8's backtracking RegExp for 40 `a` and a `!`; linear on RE2.
        { path: '$.text', pattern: '^(a+)+$' },
      ],
    },
    { name: 'scrub', kind: 'redact', tools: ['echo_text'] },
  ];
  const auditFile = path.join(mkdtempSync(path.join(tmpdir(), 'interceptors-e2e-')), 'audit.jsonl');
  const { gateway, tools } = useGatewayWithSampleService(
    (config) => {
      config.interceptors = interceptors();
      config.audit = { enabled: true, file: auditFile, maxBufferedBytes: 1_048_576 };
    },
    { env: { GUARDRAIL_AUTHORIZATION } },
  );
  /** The interceptors' decisions in the audit trail's last event of `tool` (the file is written at most 20 ms after an answer). */
  const auditedDecisions = async (tool: string) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const events = readFileSync(auditFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as AuditRequestEvent)
      .filter((event) => event.tool === tool);
    return events.at(-1)?.decisions.filter((decision) => decision.stage === 'interceptor');
  };
  beforeEach(async () => {
    guardrail.asked.length = 0;
    await tools().clearCalls();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const reply = await gateway().rpc('tools/call', { name, arguments: args });
    return { isError: reply.result?.isError, text: reply.result?.content?.[0]?.text ?? JSON.stringify(reply.error) };
  };
  const toolServiceCalls = async () => (await tools().calls()).map((recorded) => recorded.tool);

  it('a webhook denying in enforce mode: the caller gets a tool error naming the denial, the tool service gets nothing', async () => {
    expect(await call('customer_lookup', { customerId: 'C1001' })).toEqual({
      isError: true,
      text: 'Tool customer_lookup was refused by interceptor legal-hold: customer C1001 is under legal hold [gateway.interceptor_denied]',
    });
    expect(await toolServiceCalls()).toEqual([]);
    // The guardrail got the tool, the arguments and the caller's context, with the gateway's credential from
    // the environment (the fixture refuses a request without it); never the caller's token or headers.
    expect(guardrail.asked).toEqual([
      expect.objectContaining({
        interceptor: 'legal-hold',
        phase: 'request',
        payload: { name: 'customer_lookup', arguments: { customerId: 'C1001' } },
        context: expect.objectContaining({ principal: null, guid: expect.any(String) }),
      }),
    ]);
    expect(guardrail.asked[0].headers.authorization).toBe(GUARDRAIL_AUTHORIZATION);
    expect(await auditedDecisions('customer_lookup')).toEqual([{ stage: 'interceptor', name: 'legal-hold', outcome: 'deny' }]);

    expect((await call('customer_lookup', { customerId: 'C1002' })).isError).toBe(false);
    expect(await toolServiceCalls()).toEqual(['customer_lookup']);
  });

  it('the same denial in audit mode lets the call pass, and the audit trail says it would have been denied', async () => {
    expect((await call('order_search', { customerId: 'C1001' })).isError).toBe(false);
    expect(guardrail.asked.map((asked) => asked.interceptor)).toEqual(['legal-hold-trial']);
    expect(await toolServiceCalls()).toEqual(['order_search']);
    expect(await auditedDecisions('order_search')).toEqual([{ stage: 'interceptor', name: 'legal-hold-trial', outcome: 'would-deny' }]);
  });

  it('with the webhook down, failOpen decides, in both directions', async () => {
    expect((await call('product_search', { query: 'paper' })).isError).toBe(false);
    expect(await toolServiceCalls()).toEqual(['product_search']);
    await tools().clearCalls();
    const refused = await call('get_service_info', {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /^Tool get_service_info was refused by interceptor down-closed: it failed \(the guardrail could not be asked: .+\) and does not fail open \(failOpen: false\) \[gateway\.interceptor_failed\]$/,
    );
    expect(await toolServiceCalls()).toEqual([]);
    expect(await auditedDecisions('get_service_info')).toEqual([
      { stage: 'interceptor', name: 'down-closed', outcome: 'error', reason: 'interceptor_failed' },
    ]);
  });

  it("a webhook credential whose variable is unset is not sent: the guardrail's 401 is a failure naming the header, never a value", async () => {
    const refused = await call('slow_operation', {});
    expect(refused.text).toBe(
      'Tool slow_operation was refused by interceptor legal-hold-unset: it failed (the guardrail answered HTTP 401 (webhook.headers Authorization not sent: the variable or file each names is unset or empty)) and does not fail open (failOpen: false) [gateway.interceptor_failed]',
    );
    expect(await toolServiceCalls()).toEqual([]);
  });

  it('refuse: an argument matching a pattern at its JSON path is refused; a pathological one is judged at once', async () => {
    expect(await call('echo_text', { text: 'please DROP  TABLE users' })).toEqual({
      isError: true,
      text: 'Tool echo_text was refused by interceptor no-sql: the argument at $.text matches a refused pattern [gateway.interceptor_denied]',
    });
    const pathological = `${'a'.repeat(40)}!`;
    expect(await call('echo_text', { text: pathological })).toEqual({ isError: false, text: pathological });
    expect(await toolServiceCalls()).toEqual(['echo_text']);
  });

  it('redact: a planted credential and an e-mail address are removed from a 2025 result (SDK v1)', async () => {
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransportV1(new URL(gateway().url)));
    try {
      const result = await client.callTool({ name: 'echo_text', arguments: { text: PLANTED } });
      expect(result).toMatchObject({
        isError: false,
        content: [{ type: 'text', text: 'deploy with [REDACTED SECRET] and [REDACTED SECRET], questions to EMAIL_ADDRESS' }],
      });
    } finally {
      await client.close();
    }
  });

  it('redact: the same in a 2026-07-28 result (SDK v2 pinned to it)', async () => {
    const client = new Client({ name: 'sdk-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway().url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const result = await client.callTool({ name: 'echo_text', arguments: { text: PLANTED } });
      const serialized = JSON.stringify(result);
      for (const planted of [AWS_KEY, GITHUB_TOKEN, EMAIL]) expect(serialized).not.toContain(planted);
      expect((result.content as Array<{ text: string }>)[0].text).toBe(
        'deploy with [REDACTED SECRET] and [REDACTED SECRET], questions to EMAIL_ADDRESS',
      );
    } finally {
      await client.close();
    }
  });
});
