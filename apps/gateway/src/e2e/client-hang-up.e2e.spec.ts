import { type ClientRequest, request } from 'node:http';

import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { until } from '@toolmesh/test-peers/process-table';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';
import { StallingToolService } from '@toolmesh/test-peers/stalling-tool-service';

const ABANDONED = 300;

const callBody = (id: number, name: string, text: string) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { text } } });
const MCP_HEADERS = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
/** What a starved pool could add to a neighbour's call at most (issue 14: "within 100 ms plus its own time"). */
const NEIGHBOUR_SLACK_MILLIS = 100;

/**
 * The fastest of three `echo` calls, in ms, each checked for its answer. The fastest, so that one busy
 * moment of a shared machine is not read as waiting for a connection: a starved pool delays every call.
 */
async function echoMillis(mcpUrl: string, firstId: number): Promise<number> {
  let fastest = Infinity;
  for (let id = firstId; id < firstId + 3; id += 1) {
    const started = performance.now();
    const res = await fetch(mcpUrl, {
      method: 'POST',
      headers: MCP_HEADERS,
      body: callBody(id, 'echo', 'next'),
      signal: AbortSignal.timeout(10_000),
    });
    const { result } = (await res.json()) as { result: { isError: boolean; content: [{ text: string }] } };
    fastest = Math.min(fastest, performance.now() - started);
    expect(result).toMatchObject({ isError: false, content: [{ text: '{"text":"next"}' }] });
  }
  return fastest;
}

/**
 * SPEC G26 against the built gateway with its default pool (128 connections per service, 64 calls per
 * tool): clients that hang up cancel their calls, and a stuck tool leaves its neighbours connections.
 */
describe('a client that hangs up cancels its tool call', () => {
  let tools: StallingToolService;
  let gateway: ServerProcess & { match: RegExpExecArray };
  beforeAll(async () => {
    tools = await new StallingToolService().start();
    // Long tool timeouts: only cancellation, never a timeout, can free what the abandoned calls hold.
    gateway = await spawnGateway(gatewayConfigFile(tools.url, '  maxToolTimeoutMillis: 50000\n  requestDeadlineMillis: 55000\n'));
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });

  it(`after ${ABANDONED} abandoned calls to a never-replying tool, the service sees them closed and its other tool answers`, async () => {
    const [, mcpUrl] = gateway.match;
    const ownMillis = await echoMillis(mcpUrl, 10_000); // the neighbour's own time, before anything is stuck
    let answered = 0;
    const overLimit: string[] = [];
    const abandoned: ClientRequest[] = [];
    for (let id = 1; id <= ABANDONED; id += 1) {
      const call = request(mcpUrl, { method: 'POST', headers: MCP_HEADERS, agent: false });
      call.on('error', () => undefined); // destroyed below, on purpose
      call.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          answered += 1;
          overLimit.push(text);
        });
      });
      call.end(callBody(id, 'never_replies', 'abandoned-argument-text'));
      abandoned.push(call);
    }
    // Every call has either reached the tool service or been refused over the per-tool limit.
    await until(() => tools.stalledCalls().received + answered === ABANDONED, 'every call placed');
    const { received } = tools.stalledCalls();
    expect(received).toBe(64);
    expect(
      new Set(
        overLimit.map((text) => (JSON.parse(text) as { result: { isError: boolean; content: [{ text: string }] } }).result.content[0].text),
      ),
    ).toEqual(new Set(['Tool never_replies was not called: it already has 64 calls in flight, its limit; retry later.']));

    // While the stuck tool holds its share of the pool, its neighbour still gets a connection at once.
    expect(await echoMillis(mcpUrl, 20_000)).toBeLessThan(ownMillis + NEIGHBOUR_SLACK_MILLIS);

    for (const call of abandoned) call.destroy();
    await until(() => tools.stalledCalls().closed === received, 'the tool service sees every abandoned call closed');
    expect(await echoMillis(mcpUrl, 30_000)).toBeLessThan(ownMillis + NEIGHBOUR_SLACK_MILLIS);

    // Each cancellation logged once, as such, without the call's arguments.
    await until(
      () => (gateway.output().match(/event=tool_call_cancelled /g) ?? []).length === received,
      'one tool_call_cancelled line per abandoned call',
    );
    expect(gateway.output()).not.toContain('abandoned-argument-text');
  });
});
