import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectKeyValueStore } from '@toolmesh/registry';
import { freePort } from '@toolmesh/test-peers/free-port';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { AUDIT_DEFAULTS } from '../config/audit-settings';
import { type ConsentPeers, SAAS_TOOL, startConsentPeers } from '../test-support/consent-peers';
import { ScriptedBrowser } from '../test-support/scripted-browser';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/**
 * The call path of a tool that acts as its user (issue 48; docs/gateway.md, "Tools that act as the user"):
 * two authorization servers that do not trust each other (the gateway's issuer and a "SaaS" one, both
 * oidc-provider), the SaaS's API that accepts only its own tokens, and two gateway replicas sharing Redis
 * (the vault, the change channel) whose consent links both lead to replica A. An SDK v2 client at
 * 2026-07-28 gets a URL-mode input request, an SDK v1 client at 2025 the -32042 error and then
 * `notifications/elicitation/complete` on replica B; a scripted browser completes each consent, and the
 * retried call reaches the API with that user's SaaS token; so does the built agent CLI at 2025, as a process.
 * No JWT is in a log line, an error or a result.
 */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;
const OPERATOR_TOKEN = 'operator-token-0123456789abcdef';

let redis: TestRedis;
let peers: ConsentPeers;
let replicaA: TestGateway;
let replicaB: TestGateway;
/** Replica A's audit trail. */
const auditFile = path.join(mkdtempSync(path.join(tmpdir(), 'user-consent-calls-')), 'audit.jsonl');

/** The caller's access token to the gateway, as `user` signed in at the gateway's issuer. */
const signIn = (user: string) => peers.accessToken(new ScriptedBrowser(user));

beforeAll(async () => {
  [redis, peers] = await Promise.all([startRedis(), startConsentPeers()]);
  const portB = await freePort();
  const replica = (port: number) =>
    startTestGateway(
      peers.saas.issuer,
      (config) => {
        peers.configure(config);
        // Behind one load balancer every consent link leads to one place: the peers' gateway port, replica A.
        config.server.port = port;
        config.mcp.requestStateKey = 'request-state-key-shared-by-both-replicas';
        config.mcp.redis = { ...config.mcp.redis, url: redis.url, commandTimeoutMillis: 5_000 };
        config.mcp.definitionPins = { approvalToken: { env: 'OPERATOR_TOKEN' } };
        config.mcp.endpoints = [{ name: 'calendar', serve: [{ bundle: 'saas' }] }];
        if (port === peers.port) config.audit = { ...AUDIT_DEFAULTS, otelLogs: false, file: auditFile, subjectKey: { env: 'AUDIT_KEY' } };
      },
      { env: { ...peers.env, OPERATOR_TOKEN, AUDIT_KEY: 'audit-subject-key-0123456789abcdefghij' } },
    );
  [replicaA, replicaB] = await Promise.all([replica(peers.port), replica(portB)]);
});

afterAll(async () => {
  await Promise.all([replicaA?.stop(), replicaB?.stop()]);
  await Promise.all([peers?.stop(), redis?.kill()]);
});

/** Replica A's audit trail once it holds a call asked for consent, an input round (it is written at most 20 ms after an answer). */
async function auditedConsent(): Promise<string> {
  for (const waitUntil = Date.now() + 5_000; ;) {
    const trail = readFileSync(auditFile, 'utf8');
    const kinds = trail
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { tool?: string; outcome: { kind: string } })
      .filter((event) => event.tool === SAAS_TOOL)
      .map((event) => event.outcome.kind);
    if (kinds.includes('inputRequired') || Date.now() > waitUntil) {
      expect(kinds).toContain('inputRequired');
      return trail;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What the SaaS API answered the call: whose token reached it. */
function apiAnswer(result: { content?: unknown }): { user: string; tokenId: string } {
  const [block] = result.content as Array<{ text: string }>;
  return JSON.parse(block.text) as { user: string; tokenId: string };
}

async function modernClient(
  user: string,
  gateway: TestGateway,
  elicitation: { form?: Record<string, never>; url?: Record<string, never> },
) {
  const token = await signIn(user);
  const client = new Client(
    { name: 'consent-sdk-2', version: '1.0.0' },
    { capabilities: { elicitation }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return { client, token };
}

it("SDK v2 at 2026-07-28: a URL-mode input request (never -32042), the consent completed, the retry reaches the SaaS with the user's token; revoke asks again", async () => {
  const { client, token } = await modernClient('alice', replicaA, { url: {} });
  const asked: Array<{ mode?: string; url?: string }> = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { mode?: string; url?: string };
    asked.push(params);
    const page = await new ScriptedBrowser('alice').open(params.url ?? '');
    expect(page.status).toBe(200);
    return { action: 'accept' as const };
  });
  try {
    const result = await client.callTool({ name: SAAS_TOOL, arguments: {} });
    expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: expect.stringContaining(`/consent?request=`) })]);
    expect(result.isError).not.toBe(true);
    expect(apiAnswer(result).user).toBe('alice');
    // Consented once: the next call goes straight through, with the same SaaS token.
    const again = await client.callTool({ name: SAAS_TOOL, arguments: {} });
    expect(apiAnswer(again).tokenId).toBe(apiAnswer(result).tokenId);
    expect(asked).toHaveLength(1);
    expect(JSON.stringify([result, again])).not.toMatch(JWT);

    const revoked = await fetch(`${replicaB.gateway.managementUrl}/actuator/userTokens/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'alice', bundle: 'saas' }),
    });
    expect(await revoked.json()).toEqual({ removed: 1 });
    await client.callTool({ name: SAAS_TOOL, arguments: {} });
    expect(asked).toHaveLength(2);
    expect(replicaA.logs() + replicaB.logs()).not.toContain(token);
  } finally {
    await client.close();
  }
});

it("SDK v1 at 2025 on replica B's curated endpoint: -32042 with the consent link, completed through replica A, told on B by notifications/elicitation/complete, and the retry on B carries the SaaS token", async () => {
  const token = await signIn('bob');
  const client = new V1Client({ name: 'consent-sdk-1', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
  const completed = new Promise<string>((resolve) =>
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => resolve(notification.params.elicitationId)),
  );
  await client.connect(
    new V1Transport(new URL(`${replicaB.url}/calendar`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  try {
    const refused = await client.callTool({ name: SAAS_TOOL, arguments: {} }).then(
      () => undefined,
      (error: unknown) =>
        error as { code: number; message: string; data?: { elicitations: Array<{ mode: string; url: string; elicitationId: string }> } },
    );
    expect(refused?.code).toBe(-32042);
    const [elicitation] = refused?.data?.elicitations ?? [];
    expect(elicitation).toEqual(expect.objectContaining({ mode: 'url', elicitationId: expect.any(String) }));
    expect(new URL(elicitation.url).origin).toBe(new URL(replicaA.url).origin);
    expect(JSON.stringify(refused)).not.toMatch(JWT);

    expect((await new ScriptedBrowser('bob').open(elicitation.url)).status).toBe(200);
    expect(await completed).toBe(elicitation.elicitationId);
    const result = await client.callTool({ name: SAAS_TOOL, arguments: {} });
    expect(apiAnswer(result as { content?: unknown }).user).toBe('bob');
  } finally {
    await client.close();
  }
});

/**
 * The built agent CLI (`nx build agent-cli`) as its user runs it, with no terminal: `call` of the SaaS tool at
 * the gateway, with `token` as its bearer. Its stderr is read as it comes, as the user would read the screen:
 * `onLink` gets the consent link the agent prints. Resolves with its exit code and output.
 */
function agentCall(
  gatewayUrl: string,
  token: string,
  onLink: (url: string) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = mkdtempSync(path.join(tmpdir(), 'user-consent-agent-'));
  const config = path.join(home, 'agent-cli.yaml');
  writeFileSync(
    config,
    `mcp:\n  servers:\n    - name: gateway\n      url: ${gatewayUrl}\n      era: legacy\n      headers: { Authorization: "Bearer \${GATEWAY_TOKEN}" }\n` +
      // A consent never completed fails the call in seconds, naming the limit, not at Jest's timeout.
      `      serverRequests: { urlWaitMs: 20000 }\n`,
  );
  const agent = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'dist/apps/agent-cli/main.js'), 'call', `mcp__gateway__${SAAS_TOOL}`, '{}', '--config', config],
    {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: home, GATEWAY_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  agent.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  agent.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    const link = /to continue: (\S+)/.exec(chunk)?.[1];
    if (link !== undefined) onLink(link);
  });
  return new Promise((resolve) => agent.once('close', (code) => resolve({ code, stdout, stderr })));
}

it("the built agent CLI at 2025, without a terminal: prints the consent link, which the user completes, and its retry reaches the SaaS with the user's token", async () => {
  const token = await signIn('dave');
  const consents: Promise<number>[] = [];
  const run = await agentCall(replicaA.url, token, (link) =>
    consents.push(new ScriptedBrowser('dave').open(link).then((page) => page.status)),
  );

  expect(await Promise.all(consents)).toEqual([200]);
  expect(run.stderr).toMatch(/Open 127\.0\.0\.1:\d+ to continue: http:\/\/127\.0\.0\.1:\d+\/consent\?request=/);
  expect(run.code).toBe(0);
  // The API accepts only the SaaS's own tokens: its answer names dave, so the gateway sent his SaaS token.
  expect(run.stdout).toMatch(/"user":\s*"dave"/);
  expect(run.stdout + run.stderr).not.toMatch(JWT);
});

it('a client that declared no URL elicitation gets an isError result naming the link, in either era', async () => {
  const { client } = await modernClient('carol', replicaB, { form: {} });
  try {
    const modern = await client.callTool({ name: SAAS_TOOL, arguments: {} });
    expect(modern.isError).toBe(true);
    expect((modern.content as Array<{ text: string }>)[0].text).toMatch(
      /open http:\/\/127\.0\.0\.1:\d+\/consent\?request=\S+ in your browser/,
    );
  } finally {
    await client.close();
  }
  const legacy = await replicaA.rpc('tools/call', { name: SAAS_TOOL, arguments: {} }, { authorization: `Bearer ${await signIn('carol')}` });
  expect(legacy.result?.isError).toBe(true);
  expect(legacy.result?.content?.[0].text).toContain('/consent?request=');
  // Nothing of any token in either replica's log lines, nor a token or a subject in replica A's audit trail,
  // where each consent asked for is an input round.
  expect(replicaA.logs() + replicaB.logs()).not.toMatch(JWT);
  const trail = await auditedConsent();
  expect(trail).not.toMatch(JWT);
  for (const subject of ['alice', 'bob', 'carol']) expect(trail).not.toContain(subject);
});

it('the shared Redis holds only ciphertext: each vault entry a dir/A256GCM JWE under a keyed name, and no subject or JWT in any key, header or other value', async () => {
  const store = connectKeyValueStore({ url: redis.url, connectTimeoutMillis: 1_000, commandTimeoutMillis: 1_000 });
  try {
    const keys = await redis.keys();
    // Strings only: the vault writes nothing else (the other features' indexes are not its).
    const values = await Promise.all(keys.map((key) => store.get(key).catch(() => undefined)));
    const vaultEntry = (key: string) => key.includes(':user-tokens:v1:') && !key.includes(':lease:');
    const entries = keys.flatMap((key, i) => (vaultEntry(key) ? [values[i] ?? ''] : []));
    expect(entries.length).toBeGreaterThanOrEqual(2); // alice's and bob's consents
    const headers = entries.map((entry) => {
      const [header, encryptedKey, ...sealed] = entry.split('.');
      expect([encryptedKey, sealed.length]).toEqual(['', 3]); // compact JWE, `dir`: no encrypted key
      return Buffer.from(header, 'base64url').toString('utf8');
    });
    for (const header of headers)
      expect(JSON.parse(header)).toEqual({ alg: 'dir', enc: 'A256GCM', kid: expect.any(String), ctx: expect.any(String) });
    const clear = [...keys, ...headers, ...values.filter((value, i) => value !== undefined && !vaultEntry(keys[i]))].join('\n');
    expect(clear).not.toMatch(JWT);
    for (const subject of ['alice', 'bob']) expect(clear).not.toContain(subject);
  } finally {
    store.close();
  }
});
