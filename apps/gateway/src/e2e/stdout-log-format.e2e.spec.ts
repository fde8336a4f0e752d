import { writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';
import { type HttpPeer, startHttpPeer } from '@toolmesh/test-peers/peers/http-peer';
import { spawnServerProcess } from '@toolmesh/test-peers/server-process';

/** The JSON form of the line the gateway logs once it serves; its MCP URL is the match's group 1. */
const JSON_READY = /"mcpUrl":"([^"]+)","message":"gateway_started"/;

function isLogLine(line: string): boolean {
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    return typeof entry.level === 'string' && typeof entry.message === 'string' && typeof entry.timestamp === 'string';
  } catch {
    return false;
  }
}

/**
 * Nothing but the log reaches the gateway's stdout (issue 44): the MCP SDK said with `console.debug`, a
 * plain line on stdout, that a server offered no resources or prompts whenever the gateway listed them. The
 * built gateway, logging JSON, in front of an SDK server that offers tools alone: after its resources and
 * prompts were listed (a client's `resources/list` waits for that), every stdout line is a log entry.
 */
describe("the gateway's stdout", () => {
  let peer: HttpPeer;

  beforeAll(async () => {
    peer = await startHttpPeer();
  });
  afterAll(() => peer?.stop());

  it('holds log JSON lines alone, with an MCP server that offers neither resources nor prompts', async () => {
    const file = writeGatewayConfig(
      `server: { port: 0, managementPort: 0 }
logging: { format: json }
mcp:
  shutdownDrainMillis: 1000
  bundles:
    - { name: plain, mcpServer: { url: "\${PEER_URL}" } }
`,
    );
    const gateway = await spawnServerProcess('gateway', { PEER_URL: peer.url }, JSON_READY, ['--config', file]);
    try {
      const listed = await fetch(gateway.match[1], {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: {} }),
      });
      expect(await listed.json()).toMatchObject({ result: { resources: [] } });
    } finally {
      await gateway.stop();
    }
    const lines = gateway
      .output()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.filter((line) => !isLogLine(line))).toEqual([]);
  }, 60_000);
});
