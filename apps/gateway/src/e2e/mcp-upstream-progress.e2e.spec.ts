import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawnEverythingGateway } from '@toolmesh/test-peers/federating-gateway';
import { spawnGateway, writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type Everything, startEverything } from '@toolmesh/test-peers/mcp-servers';
import { until } from '@toolmesh/test-peers/process-table';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

/**
 * Progress across the hop (issue 44), built gateways in front of server-everything, whose
 * `trigger-long-running-operation` tells `notifications/progress` at each step when its call carries a
 * `progressToken`. `middle` federates server-everything (a 2025 server); `front` federates `middle` (a
 * 2026-07-28 server to it). Each caller, the v1 SDK client at 2025 and the SDK v2 client at 2026-07-28,
 * asks for progress through each: every step reaches it under its own token, then the result.
 */
const TOOL = 'ev_trigger-long-running-operation';
const STEPS = 3;
const ARGS = { duration: 0.6, steps: STEPS };
const DONE = `Long running operation completed. Duration: 0.6 seconds, Steps: ${STEPS}.`;

interface Told {
  readonly progress: number;
  readonly total?: number;
}

const textOf = (result: CallToolResult) => (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

async function legacyCall(url: string): Promise<{ told: Told[]; text: string }> {
  const client = new V1Client({ name: 'progress-test-v1', version: '1.0.0' });
  await client.connect(new V1Transport(new URL(url)));
  const told: Told[] = [];
  try {
    const result = await client.callTool({ name: TOOL, arguments: ARGS }, undefined, {
      onprogress: ({ progress, total }) => told.push({ progress, total }),
    });
    return { told, text: textOf(result as CallToolResult) };
  } finally {
    await client.close();
  }
}

async function modernCall(url: string): Promise<{ told: Told[]; text: string }> {
  const client = new Client({ name: 'progress-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const told: Told[] = [];
  try {
    const result = await client.callTool(
      { name: TOOL, arguments: ARGS },
      { onprogress: ({ progress, total }) => told.push({ progress, total }) },
    );
    return { told, text: textOf(result as CallToolResult) };
  } finally {
    await client.close();
  }
}

describe('progress across the hop (issue 44)', () => {
  let everything: Everything;
  let middle: ServerProcess & { match: RegExpExecArray };
  let front: ServerProcess & { match: RegExpExecArray };

  beforeAll(async () => {
    everything = await startEverything();
    middle = await spawnEverythingGateway(everything.url);
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: middle, mcpServer: { url: "\${MIDDLE_URL}", era: "2026-07-28" } }
`,
    );
    front = await spawnGateway(file, { MIDDLE_URL: middle.match[1] });
  }, 120_000);

  afterAll(async () => {
    await front?.stop();
    await middle?.stop();
    await everything?.stop();
  });

  const everyStep = Array.from({ length: STEPS }, (_, step) => ({ progress: step + 1, total: STEPS }));

  it("cancels the server's call when a 2026-07-28 caller closes the stream its progress came on", async () => {
    const hangUp = new AbortController();
    const response = await fetch(front.match[1], {
      method: 'POST',
      signal: hangUp.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': TOOL,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: TOOL,
          arguments: { duration: 20, steps: 20 },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            progressToken: 'p1',
          },
        },
      }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const first = await response.body?.getReader().read();
    expect(new TextDecoder().decode(first?.value)).toContain('"progressToken":"p1"');
    hangUp.abort();
    // Both hops cancel: the front its call to the middle gateway, which cancels its own to server-everything.
    for (const gateway of [front, middle]) await until(() => gateway.output().includes('event=tool_call_cancelled'), 'the call cancelled');
  }, 30_000);

  for (const [upstream, url] of [
    ['a 2025 server', () => middle.match[1]],
    ['a 2026-07-28 server', () => front.match[1]],
  ] as const) {
    it(`tells a 2025 caller the progress of ${upstream}, then its result`, async () => {
      expect(await legacyCall(url())).toEqual({ told: everyStep, text: DONE });
    });

    it(`tells a 2026-07-28 caller the progress of ${upstream}, then its result`, async () => {
      expect(await modernCall(url())).toEqual({ told: everyStep, text: DONE });
    });
  }
});
