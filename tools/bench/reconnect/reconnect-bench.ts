/**
 * Reconnect time of a crashed stdio server (SPEC A11) against that server's own cold start, measured in
 * the same run, rounds alternating: server-everything through the agent's client manager.
 *
 * - cold start: a new manager connects the server and registers its tools (connectAll + registerAllTools);
 * - reconnect: the connected server's process is killed with SIGKILL; the time from the kill until the
 *   manager shows it connected again with its tools listed anew (what the next model turn is offered).
 *
 * Target: reconnect at most the cold start + 500 ms. Run: `node tools/bench/reconnect/run.mjs [rounds]`.
 */

import { EVERYTHING_SCRIPT } from '@toolmesh/test-peers/mcp-servers';
import { pidsWithCommandLine } from '@toolmesh/test-peers/process-table';

import { McpClientManager, type StdioServerConfig, ToolRegistry, TransportClientFactory } from '../../../apps/agent-cli/src/bench-seam';
import { SMOKE, smokeRan } from '../smoke.mjs';

const ROUNDS = SMOKE ? 1 : Number(process.argv[2] ?? 10);
const log = { warn: () => undefined };

function server(tag: string): StdioServerConfig {
  return {
    name: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING_SCRIPT, 'stdio', tag],
    env: {},
    requestTimeoutMs: 20_000,
    annotationTrust: 'ignore',
  };
}

async function open(tag: string) {
  const factory = new TransportClientFactory({ name: 'reconnect-bench', version: '0' });
  const manager = new McpClientManager(factory, log);
  const registry = new ToolRegistry();
  const started = performance.now();
  const [status] = await manager.connectAll([server(tag)]);
  await manager.registerAllTools(registry);
  const elapsed = performance.now() - started;
  if (status.state !== 'connected' || registry.list().length === 0) throw new Error(`server-everything did not start: ${status.error}`);
  return { manager, registry, elapsed, close: async () => (await manager.close(), await factory.close()) };
}

async function coldStart(round: number): Promise<number> {
  const opened = await open(`bench-cold-${process.pid}-${round}`);
  await opened.close();
  return opened.elapsed;
}

async function reconnect(round: number): Promise<number> {
  const tag = `bench-crash-${process.pid}-${round}`;
  const opened = await open(tag);
  try {
    const [pid] = pidsWithCommandLine(tag);
    const killed = performance.now();
    process.kill(pid, 'SIGKILL');
    const state = () => opened.manager.status[0].state; // read anew on each test, not narrowed by the first loop
    while (state() === 'connected') await new Promise((resolve) => setTimeout(resolve, 1));
    while (state() !== 'connected') await new Promise((resolve) => setTimeout(resolve, 1));
    const offered = await opened.registry.beginTurn(); // waits for the tools listed again
    const elapsed = performance.now() - killed;
    if (offered.length === 0) throw new Error('no tools after the reconnect');
    return elapsed;
  } finally {
    await opened.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function main(): Promise<void> {
  const cold: number[] = [];
  const back: number[] = [];
  await coldStart(-1); // warm the file cache
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      cold.push(await coldStart(round));
      back.push(await reconnect(round));
    } else {
      back.push(await reconnect(round));
      cold.push(await coldStart(round));
    }
  }
  const c = median(cold);
  const r = median(back);
  console.log(`server-everything over stdio, ${ROUNDS} rounds, medians:`);
  console.log(`  cold start (connect + tools/list):           ${c.toFixed(0)} ms`);
  console.log(`  reconnect after SIGKILL (until tools listed): ${r.toFixed(0)} ms`);
  console.log(
    `  reconnect / cold start ${(r / c).toFixed(2)}x, difference ${(r - c).toFixed(0)} ms (target: at most +500 ms) ${r <= c + 500 ? 'met' : 'NOT met'}`,
  );
}

main().then(
  () => smokeRan('reconnect'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
