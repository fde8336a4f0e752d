#!/usr/bin/env node
// Slow-client benchmark (SPEC G26): does a slowloris and dribbled-body attack on the built gateway slow its
// normal callers? A steady valid load (tools/call, back to back) is measured quiet, then while attackers hold
// connections open by sending headers (never finishing them) or a body one byte at a time; each attacker
// that the gateway cuts reconnects at once. Reports both p99s and their ratio, and how many attackers
// were cut with a 408. Usage (after `npx nx run gateway:build`):
//   node tools/bench/slow-clients/run.mjs [--seconds 5] [--clients 16] [--slowloris 300] [--dribblers 100]
import { connect } from 'node:net';
import { parseArgs } from 'node:util';

import { startEchoGateway } from '../echo-gateway.mjs';
import { SMOKE, smokeRan } from '../smoke.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: SMOKE ? '1' : '5' },
    clients: { type: 'string', default: SMOKE ? '2' : '16' },
    slowloris: { type: 'string', default: SMOKE ? '5' : '300' },
    dribblers: { type: 'string', default: SMOKE ? '5' : '100' },
    smoke: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);

const { mcpUrl, stop } = await startEchoGateway([{ name: 'echo', inputSchema: { type: 'object' } }]);
const { hostname, port } = new URL(mcpUrl);

const headers = { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' };
const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } });
const post = async () => {
  const reply = await (await fetch(mcpUrl, { method: 'POST', headers, body: CALL })).json();
  if (!reply.result || reply.result.isError) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
};
while (
  await post().then(
    () => false,
    () => true,
  )
)
  await new Promise((resolve) => setTimeout(resolve, 50)); // catalogue loaded

/** `clients` callers back to back for SECONDS; every call must succeed. Resolves the latencies in ms. */
async function steadyLoad() {
  const latencies = [];
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: Number(values.clients) }, async () => {
      while (Date.now() < until) {
        const started = process.hrtime.bigint();
        await post();
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

/** Attackers that reconnect when cut; `drip` is what each sends every second after `opening`. */
function attack(count, opening, drip) {
  const stats = { cut: 0, answered408: 0 };
  let running = true;
  const open = () => {
    if (!running) return;
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(opening));
    const timer = setInterval(() => socket.writable && socket.write(drip), 1000);
    socket.setEncoding('utf8').on('data', (chunk) => (received += chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(timer);
      stats.cut += 1;
      if (received.startsWith('HTTP/1.1 408')) stats.answered408 += 1;
      open();
    });
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const sockets = new Set();
  for (let i = 0; i < count; i++) open();
  return {
    stats,
    stop: () => {
      running = false;
      for (const socket of sockets) socket.destroy();
    },
  };
}

const p99 = (sorted) => sorted[Math.floor(sorted.length * 0.99)];
const quiet = await steadyLoad();
const head = `POST /mcp HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2025-11-25\r\n`;
const slowloris = attack(Number(values.slowloris), head, 'x-a: b\r\n');
const dribblers = attack(Number(values.dribblers), `${head}Content-Length: 100000\r\n\r\n`, ' ');
await new Promise((resolve) => setTimeout(resolve, 500)); // the attackers are connected
const underAttack = await steadyLoad();
slowloris.stop();
dribblers.stop();
stop();

console.log(`| steady load (${values.clients} clients, ${SECONDS} s) | calls | p50 ms | p99 ms |`);
console.log(`|---|---|---|---|`);
console.log(`| quiet | ${quiet.length} | ${quiet[Math.floor(quiet.length / 2)].toFixed(2)} | ${p99(quiet).toFixed(2)} |`);
console.log(
  `| under attack (${values.slowloris} slowloris, ${values.dribblers} dribbled bodies) | ${underAttack.length} | ${underAttack[Math.floor(underAttack.length / 2)].toFixed(2)} | ${p99(underAttack).toFixed(2)} |`,
);
console.log(
  `p99 ratio under attack / quiet: ${(p99(underAttack) / p99(quiet)).toFixed(2)}x; attackers cut: slowloris ${slowloris.stats.cut} (${slowloris.stats.answered408} with 408), dribblers ${dribblers.stats.cut} (${dribblers.stats.answered408} with 408)`,
);
smokeRan('slow-clients');
