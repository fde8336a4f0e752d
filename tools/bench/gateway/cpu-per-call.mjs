#!/usr/bin/env node
// CPU time per tools/call, gateway against the minimal proxy, in one run (docs/adr/0005). Absolute req/s
// drift by 40% on a shared machine; the CPU a process spends per call at a fixed, sustainable request
// rate is much steadier, so this is how each hot-path change is judged before the full benchmark.
// Reads utime+stime of each server process from /proc/<pid>/stat around a fixed-rate autocannon run.
// The tool service's own CPU per call is printed as a control: it does the same work in every round.
// Usage: node tools/bench/gateway/cpu-per-call.mjs [--rate 2000 --duration 10 --rounds 2 --profile]
// (after `npx nx run gateway:build`); --profile writes the gateway's .cpuprofile to tmp/bench/profiles.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { callBody, check, mcpHeaders, root, startGateway, startMinimalProxy, startToolService, stopAll } from './processes.mjs';

const { values: options } = parseArgs({
  options: {
    rate: { type: 'string', default: '2000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    profile: { type: 'boolean', default: false },
  },
});
const rate = Number(options.rate);
const duration = Number(options.duration);
const connections = Number(options.connections);
const rounds = Number(options.rounds);
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User plus system CPU time of a process so far, in microseconds. */
function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the whole line.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond;
}

async function perCall(target, toolService) {
  const load = { url: target.url, method: 'POST', headers: mcpHeaders, body: callBody, connections, overallRate: rate };
  await autocannon({ ...load, duration: 2 }); // warm-up: JIT, pools, connections
  const before = [cpuMicros(target.pid), cpuMicros(toolService.pid)];
  const r = await autocannon({ ...load, duration });
  const after = [cpuMicros(target.pid), cpuMicros(toolService.pid)];
  if (r.errors > 0 || r.non2xx > 0) throw new Error(`${target.name}: ${r.errors} errors, ${r.non2xx} non-2xx replies`);
  const calls = r.requests.total;
  return { calls, micros: (after[0] - before[0]) / calls, toolServiceMicros: (after[1] - before[1]) / calls };
}

try {
  const toolService = await startToolService(10);
  const profileDir = path.join(root, 'tmp/bench/profiles');
  if (options.profile) mkdirSync(profileDir, { recursive: true });
  const gateway = { name: 'gateway', ...(await startGateway(toolService.url, options.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [])) };
  const proxy = { name: 'minimal proxy', ...(await startMinimalProxy(toolService.url)) };
  for (const target of [gateway, proxy]) await check(target.url, mcpHeaders, callBody, 'hello');

  console.log(`${rate} calls/s, ${connections} connections, ${duration} s per measurement, ${rounds} rounds, node ${process.version}\n`);
  const results = { gateway: [], 'minimal proxy': [] };
  for (let round = 1; round <= rounds; round += 1) {
    for (const target of [gateway, proxy]) {
      const row = await perCall(target, toolService);
      results[target.name].push(row.micros);
      console.log(
        `round ${round}  ${target.name.padEnd(14)} ${row.micros.toFixed(1).padStart(6)} us/call   (tool service ${row.toolServiceMicros.toFixed(1)} us/call, ${row.calls} calls)`,
      );
    }
  }
  const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const [gatewayMean, proxyMean] = [mean(results.gateway), mean(results['minimal proxy'])];
  console.log(`\nmean: gateway ${gatewayMean.toFixed(1)} us/call, minimal proxy ${proxyMean.toFixed(1)} us/call, gateway / proxy ${(gatewayMean / proxyMean).toFixed(2)}x`);
  console.log(`a single-threaded server's ceiling: gateway ${Math.round(1e6 / gatewayMean)} calls/s, minimal proxy ${Math.round(1e6 / proxyMean)} calls/s`);
} finally {
  stopAll();
}
