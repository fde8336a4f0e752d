import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

type Answer = { id: unknown; result?: { tools: unknown[] }; error?: { code: number; message: string; data?: unknown } };

const TOOLS = 1_000;
const HEAP_MIB = 384;

/** A 1,000-tool manifest of about 1.3 MB, so that each `tools/list` answer is that large. */
function writeManifest(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-batches-')), 'manifest.json');
  const tools = Array.from({ length: TOOLS }, (_, i) => ({
    name: `tool_${String(i).padStart(4, '0')}`,
    description: `Tool number ${i}. ${'It does what its name says, and nothing else. '.repeat(22)}`,
    inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 1000 + i } }, required: ['text'] },
    endpoint: '/tools/echo',
  }));
  writeFileSync(file, JSON.stringify({ manifestVersion: '1', revision: 'batch-bench', tools }));
  return file;
}

/**
 * Issue 43, item 1, against the built gateway as its own process with the heap (384 MB) and a
 * 1,000-tool catalogue, at its default batch limits: the batch that killed it (300 `tools/list` members in
 * 14.6 KB, several at once) is refused whole, a batch within the member cap stops running members once its
 * responses pass the byte cap, and liveness answers throughout. The figures are in tools/bench/hostile-batches.
 */
describe('hostile JSON-RPC batches (built gateway process, 384 MB heap)', () => {
  let gateway: ServerProcess & { match: RegExpExecArray };
  let mcpUrl: string;
  let managementUrl: string;

  beforeAll(async () => {
    const config = writeGatewayConfig(`server: { port: 0, managementPort: 0 }
mcp:
  bundles: [{ name: bulk, serviceDomain: "http://127.0.0.1:1", manifestFile: "${writeManifest()}" }]
`);
    gateway = await spawnGateway(config, { NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}` });
    [, mcpUrl, managementUrl] = gateway.match;
    // ready once the catalogue is loaded
    while ((await fetch(`${managementUrl}/actuator/health/readiness`)).status !== 200)
      await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const postBatch = (size: number) =>
    fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-03-26' },
      body: JSON.stringify(Array.from({ length: size }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }))),
    });
  const liveness = async () => (await fetch(`${managementUrl}/actuator/health/liveness`)).status;

  it('serves a batch of one tools/list with the whole catalogue', async () => {
    const res = await postBatch(1);
    expect(res.status).toBe(200);
    const [answer] = (await res.json()) as Answer[];
    expect(answer.result?.tools).toHaveLength(TOOLS);
  });

  it('refuses the batch of 300 tools/list members whole, five at once, and stays live', async () => {
    const attacks = Array.from({ length: 5 }, () => postBatch(300));
    expect(await liveness()).toBe(200);
    for (const res of await Promise.all(attacks)) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as Answer).error).toEqual({
        code: -32600,
        message: expect.stringContaining('300 messages, more than maxBatchMembers (32)'),
        data: { limit: 'maxBatchMembers', maximum: 32 },
      });
    }
    expect(await liveness()).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
  });

  it('answers a batch of 32 tools/list members until its responses pass 1 MiB, the rest with -32600, and stays live', async () => {
    const attacks = Array.from({ length: 5 }, () => postBatch(32));
    expect(await liveness()).toBe(200);
    for (const res of await Promise.all(attacks)) {
      expect(res.status).toBe(200);
      const answers = (await res.json()) as Answer[];
      expect(answers.map(({ id }) => id)).toEqual(Array.from({ length: 32 }, (_, id) => id));
      // one answer of about 1.3 MB passes the 1 MiB cap: every later member is refused without running
      expect(answers[0].result?.tools).toHaveLength(TOOLS);
      for (const answer of answers.slice(1)) {
        expect(answer.error).toMatchObject({ code: -32600, data: { limit: 'maxBatchResponseBytes', maximum: 1_048_576 } });
      }
    }
    expect(await liveness()).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
  });
});
