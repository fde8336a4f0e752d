#!/usr/bin/env node
// Gateway benchmark (README "Benchmarks"): in one run, on loopback, with wrk (or autocannon), measures
//   tools/call: the tool service called directly, the SDK recipe, our gateway;
//   tools/list of 1,000 tools: the SDK recipe, our gateway;
// plus, for reference, a minimal hand-written proxy (no validation, no logging) for tools/call,
// and prints req/s, p50, p99 and the ratios the targets are stated in. Absolute numbers drift with the
// machine; the ratios are what to compare.
// Usage: npx nx run gateway:bench [-- --duration 10 --connections 32 --load wrk|autocannon]
//   --load: the load generator; wrk (Debian's `wrk`) when it is installed, else autocannon.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad, wrkInstalled } from './load.mjs';
import { callBody, check, listBody, mcpHeaders, root, startGateway, startMinimalProxy, startSdkRecipe, startToolService, stopAll } from './processes.mjs';

const { values: options } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' }, load: { type: 'string' } },
});
const load = options.load ?? (wrkInstalled() ? 'wrk' : 'autocannon');
if (load !== 'wrk' && load !== 'autocannon') throw new Error(`--load must be wrk or autocannon, not ${load}`);
const duration = Number(options.duration);
const connections = Number(options.connections);

async function measure(name, url, headers, body) {
  await runLoad(load, { url, headers, body, connections, duration: 1 }); // warm-up: JIT, connection pools
  const r = await runLoad(load, { url, headers, body, connections, duration });
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${name}: ${r.errors} errors, ${r.non2xx} non-2xx replies`);
  if (!(r.reqPerSec > 0)) throw new Error(`${name}: no request completed in ${duration} s; give it a longer --duration`);
  const row = { name, reqPerSec: Math.round(r.reqPerSec), p50Ms: roundMs(r.p50Ms), p99Ms: roundMs(r.p99Ms) };
  console.log(`${name.padEnd(28)} ${String(row.reqPerSec).padStart(8)} req/s   p50 ${String(row.p50Ms).padStart(5)} ms   p99 ${String(row.p99Ms).padStart(5)} ms`);
  return row;
}

/** wrk reports fractions of a millisecond; one decimal below 10 ms is what the figures need. */
const roundMs = (ms) => (ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms));

async function startStack(tools) {
  const toolService = (await startToolService(tools)).url;
  const sdkRecipe = (await startSdkRecipe(toolService)).url;
  const gateway = (await startGateway(toolService)).url;
  await check(`${toolService}/tools/echo`, { 'content-type': 'application/json' }, '{"text":"hello"}', '"echo":"hello"');
  for (const url of [sdkRecipe, gateway]) {
    await check(url, mcpHeaders, callBody, 'hello');
    await check(url, mcpHeaders, listBody, `tool_${String(tools - 1).padStart(4, '0')}`);
  }
  return { toolService, sdkRecipe, gateway };
}

try {
  // tools/call is measured on a small catalogue, as a deployment with one tool service has; the SDK
  // recipe's cost grows with every tool it registers per request, so a 1,000-tool catalogue is shown too.
  const small = await startStack(10);
  const minimalProxy = (await startMinimalProxy(small.toolService)).url;
  await check(minimalProxy, mcpHeaders, callBody, 'hello');
  const large = await startStack(1000);

  console.log(`\n${load}, ${connections} connections, ${duration} s per scenario, node ${process.version}\n`);
  const direct = await measure('tools/call direct (limit)', `${small.toolService}/tools/echo`, { 'content-type': 'application/json' }, '{"text":"hello"}');
  const sdkCall = await measure('tools/call SDK recipe', small.sdkRecipe, mcpHeaders, callBody);
  const ourCall = await measure('tools/call gateway', small.gateway, mcpHeaders, callBody);
  const proxyCall = await measure('tools/call minimal proxy', minimalProxy, mcpHeaders, callBody);
  const sdkCallLarge = await measure('tools/call SDK, 1000 tools', large.sdkRecipe, mcpHeaders, callBody);
  const ourCallLarge = await measure('tools/call gw, 1000 tools', large.gateway, mcpHeaders, callBody);
  const sdkList = await measure('tools/list 1000 SDK recipe', large.sdkRecipe, mcpHeaders, listBody);
  const ourList = await measure('tools/list 1000 gateway', large.gateway, mcpHeaders, listBody);

  const ratios = {
    callVsSdk: ourCall.reqPerSec / sdkCall.reqPerSec,
    callVsDirect: ourCall.reqPerSec / direct.reqPerSec,
    callVsSdkLargeCatalogue: ourCallLarge.reqPerSec / sdkCallLarge.reqPerSec,
    listVsSdk: ourList.reqPerSec / sdkList.reqPerSec,
    callVsMinimalProxy: ourCall.reqPerSec / proxyCall.reqPerSec,
    minimalProxyVsDirect: proxyCall.reqPerSec / direct.reqPerSec,
  };
  console.log(`\ntools/call gateway / SDK recipe              ${ratios.callVsSdk.toFixed(1)}x   (target >= 10x)`);
  console.log(`tools/call gateway / direct                  ${ratios.callVsDirect.toFixed(2)}x  (target >= 0.3x)`);
  console.log(`tools/call gateway / SDK, 1000-tool catalogue ${ratios.callVsSdkLargeCatalogue.toFixed(0)}x`);
  console.log(`tools/list 1000 gateway / SDK recipe         ${ratios.listVsSdk.toFixed(0)}x    (target >= 50x)`);
  console.log(`tools/call gateway / minimal proxy           ${ratios.callVsMinimalProxy.toFixed(2)}x  (reference: no validation, no logging)`);
  console.log(`tools/call minimal proxy / direct            ${ratios.minimalProxyVsDirect.toFixed(2)}x  (reference: the ceiling of two hops here)`);
  mkdirSync(path.join(root, 'tmp/bench'), { recursive: true });
  const rows = [direct, sdkCall, ourCall, proxyCall, sdkCallLarge, ourCallLarge, sdkList, ourList];
  writeFileSync(path.join(root, 'tmp/bench/gateway.json'), `${JSON.stringify({ load, connections, duration, rows, ratios }, null, 2)}\n`);
} finally {
  stopAll();
}
