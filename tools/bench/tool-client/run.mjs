#!/usr/bin/env node
// The evidence behind ADR 0004: one keep-alive client POSTing small JSON to a local node:http service,
// 64 calls in flight, with got (the design's choice), undici's pool (the gateway's) and bare node:http
// as the baseline, all in one run. Usage: node tools/bench/tool-client/run.mjs [calls]
import '../usage.mjs';

import http from 'node:http';

import { Pool } from 'undici';

import { SMOKE, smokeRan } from '../smoke.mjs';

const calls = SMOKE ? 200 : Number(process.argv[2] ?? 20_000);
const inFlight = 64;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"ok":true}}'));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const body = JSON.stringify({ query: 'x', limit: 3 });
const headers = { 'content-type': 'application/json' };

// got is an ES module package: imported here, after --help has had its say (usage.mjs), not parsed for it.
const { default: got } = await import('got');
const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
const gotClient = got.extend({ agent: { http: agent }, retry: { limit: 0 }, timeout: { request: 5_000 } });
const pool = new Pool(origin, { connections: inFlight });

const clients = {
  'node:http (baseline)': () =>
    new Promise((resolve, reject) => {
      const request = http.request(`${origin}/tool`, { method: 'POST', agent, headers }, (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk) => (text += chunk))
          .on('end', () => resolve(JSON.parse(text)));
      });
      request.on('error', reject).end(body);
    }),
  got: async () => JSON.parse((await gotClient.post(`${origin}/tool`, { body, headers })).body),
  'undici Pool': async () =>
    JSON.parse(
      await (await pool.request({ path: '/tool', method: 'POST', body, headers, headersTimeout: 5_000, bodyTimeout: 5_000 })).body.text(),
    ),
};

async function rate(call) {
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (started++ < calls) await call();
    }),
  );
  return calls / ((performance.now() - t0) / 1000);
}

const results = {};
for (let round = 0; round < 2; round++) {
  // Best of two rounds each, so that a noisy neighbour on this shared machine hurts no client alone.
  for (const [name, call] of Object.entries(clients)) results[name] = Math.max(results[name] ?? 0, await rate(call));
}
const baseline = results['node:http (baseline)'];
for (const [name, perSecond] of Object.entries(results)) {
  console.log(`${name.padEnd(22)} ${String(Math.round(perSecond)).padStart(7)} calls/s   ${(perSecond / baseline).toFixed(2)}x node:http`);
}
await pool.close();
server.close();
agent.destroy();
smokeRan('tool-client');
