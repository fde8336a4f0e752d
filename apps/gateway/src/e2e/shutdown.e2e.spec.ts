import { once } from 'node:events';

import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { until } from '@toolmesh/test-peers/process-table';
import { StallingToolService } from '@toolmesh/test-peers/stalling-tool-service';

const HANGING = 16;
const DRAIN_MILLIS = 2000;

/** When the gateway wrote `event`, by the timestamp that begins each of its log lines. */
function loggedAt(output: string, event: string): number {
  const line = output.split('\n').find((candidate) => candidate.includes(` event=${event}`));
  if (line === undefined) throw new Error(`no ${event} line in the gateway's output`);
  return Date.parse(line.slice(0, line.indexOf(' ')));
}

/** SPEC G26: shutdown keeps its word with calls hanging upstream (the built gateway, a 2 s drain). */
describe('shutdown with calls hanging upstream', () => {
  let tools: StallingToolService;
  beforeAll(async () => {
    tools = await new StallingToolService().start();
  });
  afterAll(() => tools?.stop());

  it('on SIGTERM turns readiness DOWN at once, drains 2 s, aborts the hanging calls and exits 0', async () => {
    // Tool timeouts far beyond the drain: only aborting the calls lets the process exit in time.
    const gateway = await spawnGateway(
      gatewayConfigFile(
        tools.url,
        `  shutdownDrainMillis: ${DRAIN_MILLIS}\n  maxToolTimeoutMillis: 50000\n  requestDeadlineMillis: 55000\n`,
      ),
    );
    const [, mcpUrl, managementUrl] = gateway.match;
    const readiness = async () => (await fetch(`${managementUrl}/actuator/health/readiness`).catch(() => undefined))?.status ?? 'closed';
    while ((await readiness()) !== 200) await new Promise((resolve) => setTimeout(resolve, 20));

    const calls = Array.from({ length: HANGING }, (_, i) =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'never_replies', arguments: {} } }),
      }).then(
        (res) => res.status,
        () => 'cut',
      ),
    );
    await until(() => tools.stalledCalls().received === HANGING, 'every call reached the tool service');

    const exited = once(gateway.child, 'exit');
    const signalled = Date.now();
    gateway.child.kill('SIGTERM');
    await until(() => gateway.output().includes('event=gateway_signal'), 'the signal logged');
    // From the signal on, every readiness probe is DOWN until the management port closes.
    const probes: Array<number | string> = [];
    let done = false;
    void exited.then(() => (done = true));
    while (!done) {
      probes.push(await readiness());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [code] = await exited;
    const exitMillis = Date.now() - signalled;

    expect(code).toBe(0);
    // The promise, by the gateway's own clock: from the signal to its last line (then `process.exit`),
    // within the drain plus one second. Without the abort it waits for the calls' 50 s timeouts.
    expect(loggedAt(gateway.output(), 'gateway_stopped') - loggedAt(gateway.output(), 'gateway_signal')).toBeLessThanOrEqual(
      DRAIN_MILLIS + 1000,
    );
    // Seen from outside, signal delivery and process teardown come on top; a busy machine gets slack here.
    expect(exitMillis).toBeLessThan(DRAIN_MILLIS + 1000 + 5000);
    expect(probes.filter((status) => status !== 'closed').length).toBeGreaterThan(0);
    expect(new Set(probes)).toEqual(new Set(probes.filter((status) => status === 503 || status === 'closed')));
    expect(await Promise.all(calls)).toEqual(Array(HANGING).fill('cut'));
    expect(tools.stalledCalls().closed).toBe(HANGING);
    expect(gateway.output()).toContain(`event=gateway_drain_cut aborted=${HANGING}`);
    expect(gateway.output()).toMatch(/event=gateway_stopped/);
    process.stdout.write(`gateway exited ${exitMillis} ms after SIGTERM (drain 2000 ms)\n`);
  });
});
