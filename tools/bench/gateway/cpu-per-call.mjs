#!/usr/bin/env node
// CPU time per tools/call of the gateway and of the minimal proxy, in one run (docs/adr/0005). Absolute
// req/s drift by 40% on a shared machine; the CPU a process spends per call at a fixed, sustainable
// request rate is much steadier, so this is how each hot-path change is judged before the full benchmark.
// It reads utime+stime of each server process from /proc/<pid>/stat around each load run, round after
// round, the targets interleaved in a rotating order and started afresh for every round. The tool service's
// CPU per call is printed as a control.
// A fixed rate is driven from this process by autocannon, whose `overallRate` gives each connection a
// quota per second, sent back to back (so the second's calls arrive as a burst, then nothing), or with
// `--client undici` by the same schedule sent from an undici Pool (paced-load.mjs). `--rate max` is driven
// by the benchmark's load generator (wrk when installed, which leaves the servers more of the two cores),
// each server saturated.
//
// Usage (after `npx nx run gateway:build`):
//   node tools/bench/gateway/cpu-per-call.mjs [--rate 2000|max --duration 5 --rounds 15 --load wrk|autocannon]
//     --compare <main.js>  also measures another gateway build (e.g. a copy of the previous dist inside the
//                          repo, so that it finds node_modules) in the same rounds: the fairest comparison
//                          of a change on a noisy machine (repeatable)
//     --compare-flags "<node options>"  also measures this build run with these Node options (e.g. GC settings)
//     --compare-env "NAME=value ..."    also measures this build with these environment variables (e.g.
//                          METRICS_ENABLED=false: what the metrics cost)
//     --compare-auth       also measures this build with `auth` and `rateLimits` on (bench-issuer.mjs), every
//                          target sent the same bearer token (a gateway without `auth` ignores it): what
//                          authentication, authorization and rate limits cost per call (tools/bench/gateway-auth),
//                          and once more with the limits counted in a redis-server of the run's own (replicas'
//                          shared counts, reserved a lease at a time)
//     --compare-interceptor  also measures this build with a webhook interceptor (issue 46) on every call: a
//                          guardrail in this process that allows each call, so the row less the gateway's is
//                          what one hop to a guardrail costs the gateway (the minimal proxy's row, one hop in and
//                          one out, for scale)
//     --compare-audit      also measures this build with the audit trail on (issue 46; docs/gateway.md, "Audit
//                          trail"), every call a line of a file in a temporary folder, deleted at the end: the
//                          row's paired ratio / gateway is what the trail costs a call
//     --client autocannon|undici  what sends a fixed rate (above); autocannon by default
//     --pin                the measured servers on CPU 1, this process and the tool service on CPU 0
//     --together           each round's targets warmed and measured at the same time, each sent the rate
//                          (below): the machine's neighbours weigh on all of them alike
//     --warmup <s>         load each fresh process gets before it is measured, in runs of 2 s (default 10; below)
//     --profile            writes each gateway's .cpuprofile (node --cpu-prof, a sample every 100 us: ten times
//                          node's default, enough samples for a function of 1%) to tmp/bench/profiles/<target>
//     --federation         the gateway's bundle an MCP server (bench-mcp-server.mjs) instead of the tool service,
//                          measured against the bare MCP forwarder in front of the same server, in both
//                          eras (tools/bench/gateway-federation); every other option applies, each target
//                          once per era
// Beside the gateway and its baseline, every run measures the required-work floor (required-work-floor.mjs:
// the baseline plus, inline, the work the requirements ask for each call; with --compare-auth also with
// `auth` and `limits`), so that the ratio to the baseline is read against what the required work costs:
//     --floor-without <parts>  also measures the floor without these parts (comma-separated, e.g. logs,metrics):
//                          what each part of the required work costs (repeatable)
import '../usage.mjs';

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import autocannon from 'autocannon';

import { SMOKE, SMOKE_SECONDS, smokeRan } from '../smoke.mjs';
import { startAllowingGuardrail } from './allowing-guardrail.mjs';
import { startBenchIssuer } from './bench-issuer.mjs';
import { chooseLoadGenerator, runLoad } from './load.mjs';
import { PacedLoad } from './paced-load.mjs';
import {
  callRequest,
  check,
  cpuMicros,
  Era,
  mainThreadCpuMicros,
  mcpRequest,
  root,
  settle,
  startBenchMcpServer,
  startGateway,
  startMcpForwarder,
  startMinimalProxy,
  startRedisServer,
  startRequiredWorkFloor,
  startToolService,
  stopAll,
  stopProcess,
} from './processes.mjs';

const { values: options } = parseArgs({
  options: {
    rate: { type: 'string', default: SMOKE ? '200' : '2000' },
    duration: { type: 'string', default: SMOKE ? SMOKE_SECONDS : '5' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: SMOKE ? '1' : '15' }, // odd, so that the median is one round's ratio
    compare: { type: 'string', multiple: true, default: [] },
    'compare-flags': { type: 'string', multiple: true, default: [] },
    'compare-env': { type: 'string', multiple: true, default: [] },
    'compare-auth': { type: 'boolean', default: false },
    'compare-interceptor': { type: 'boolean', default: false },
    'compare-audit': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
    load: { type: 'string' },
    client: { type: 'string', default: 'autocannon' },
    warmup: { type: 'string', default: SMOKE ? SMOKE_SECONDS : '10' },
    federation: { type: 'boolean', default: false },
    together: { type: 'boolean', default: false },
    'floor-without': { type: 'string', multiple: true, default: [] },
    smoke: { type: 'boolean', default: false },
  },
});
// `--rate max`: no rate limit, each server saturated (its CPU per call there is what caps its req/s).
const rate = options.rate === 'max' ? undefined : Number(options.rate);
if (options.client !== 'autocannon' && options.client !== 'undici')
  throw new Error(`--client must be autocannon or undici, not ${options.client}`);
const load = rate ? options.client : chooseLoadGenerator(options.load);
const duration = Number(options.duration);
const connections = Number(options.connections);
const rounds = Number(options.rounds);
// A fresh process is not in its steady state after one short run. V8 goes on compiling the hot path on
// its background threads, and each load run ends with paths the process has not run yet: autocannon
// closes its connections and drops the calls still in flight, so the gateway cancels them. The first
// time such a path runs, V8 drops optimized code that assumed it never would and compiles the hot path
// again (`--trace-deopt`: dozens of functions at once, undici's and the gateway's). At 2,000 calls/s the
// threads other than the main one spent 25-50 us per gateway call in the run after the first (the proxy,
// with less code: 15-25 us), and about 2 us from the fourth 2 s run on. So the warm-up is several runs of
// 2 s, each with its own connections as the measured one has, and every row shows the CPU of the other
// threads: more than a few us per call says the process was still being compiled.
// Under --smoke, one run of 1 s: the path, not a steady state.
const warmupRunSeconds = SMOKE ? Number(SMOKE_SECONDS) : 2;
const warmupRuns = Math.max(1, Math.round(Number(options.warmup) / warmupRunSeconds));
const issuer = options['compare-auth'] ? await startBenchIssuer() : undefined;
/** With --compare-interceptor, the guardrail its webhook asks: allows every call, at once. */
const guardrail = options['compare-interceptor'] ? await startAllowingGuardrail() : undefined;
/** With --compare-audit, the folder of the audit trail's file (its lines are written, as in production, then deleted). */
const auditFolder = options['compare-audit'] ? mkdtempSync(path.join(tmpdir(), 'bench-audit-')) : undefined;
/** With --compare-auth, the same limits also counted in Redis (shared by replicas, a lease at a time). */
const limitsRedis = issuer ? await startRedisServer() : undefined;
/**
 * The eras measured: the federation benchmark's both, the gateway's against the minimal proxy 2025 only.
 * Under --smoke the federation's 2026-07-28 era only: each era's targets go through the same code, and the
 * 2025 era's requests are the ones every other smoke run sends.
 */
const eras = options.federation ? (SMOKE ? ['modern'] : ['legacy', 'modern']) : ['legacy'];
/** What each target of an era is sent: the bench tool service's tool, or the bench MCP server's `echo`. */
function callOf(era) {
  const request = options.federation ? mcpRequest(era, 'tools/call', { name: 'echo', arguments: { text: 'hello' } }) : callRequest(era);
  return issuer ? { ...request, headers: { ...request.headers, authorization: issuer.authorization } } : request;
}
/** The gateway's bundle of an era: the bench tool service's manifest, or the MCP server pinned to the era. */
function bundleOf(era, upstream) {
  if (!options.federation) return undefined;
  return `mcpServer: { url: "${upstream}", era: "${era === 'legacy' ? '2025' : Era.modern}" }`;
}
/**
 * One measured window: `servers` driven at once for `duration` s (one server, or with `--together` all the
 * round's), each one's CPU per call read from /proc, and the tool service's when it served only one of them.
 * Together, the machine's neighbours weigh on every target alike: measured one after another, a target's
 * figure moved by up to 30% from one round to the next as they came and went (the tool service's own CPU
 * per call, a control, moved alike), so together the per-round ratios are paired in time too.
 */
async function measure(servers, toolService) {
  await settle();
  const sample = (server) => [cpuMicros(server.pid), mainThreadCpuMicros(server.pid)];
  const before = servers.map(sample);
  const toolServiceBefore = toolService && cpuMicros(toolService.pid);
  const results = await Promise.all(servers.map((server) => drive(server, duration)));
  const toolServiceAfter = toolService && cpuMicros(toolService.pid);
  return servers.map((server, i) => {
    const r = results[i];
    if (r.errors > 0 || r.non2xx > 0) throw new Error(`${server.name}: ${r.errors} errors, ${r.non2xx} non-2xx replies`);
    const [micros, mainThreadMicros] = sample(server).map((value, j) => (value - before[i][j]) / r.requests);
    const toolServiceMicros = toolService && (toolServiceAfter - toolServiceBefore) / r.requests;
    return { server, calls: r.requests, micros, otherThreadsMicros: micros - mainThreadMicros, toolServiceMicros };
  });
}

/** `seconds` of load on `server`: the fixed rate, or with `--rate max` as many calls as it takes. */
function drive(server, seconds) {
  return rate ? fixedRate(server, seconds) : runLoad(load, { url: server.url, ...server.target.call, connections, duration: seconds });
}

async function fixedRate(server, seconds) {
  if (options.client === 'undici') {
    server.load ??= new PacedLoad(server.url, server.target.call, { rate, connections });
    return server.load.run(seconds);
  }
  const { headers, body } = server.target.call;
  const r = await autocannon({
    url: server.url,
    method: 'POST',
    headers,
    body,
    connections,
    overallRate: rate,
    duration: seconds,
  });
  return { requests: r.requests.total, errors: r.errors, non2xx: r.non2xx };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

if (options.pin) {
  // This process (the load generator) and the tool service on CPU 0, the measured servers on CPU 1.
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
}
const pinServer = (server) => {
  if (options.pin) execFileSync('taskset', ['-a', '-p', '-c', '1', String(server.pid)], { stdio: 'ignore' });
};

try {
  // The upstream: the tool service, or with --federation the MCP server (named "tool service" in the rows).
  const toolService = options.federation ? await startBenchMcpServer() : await startToolService(10);
  // One folder per target, so that the profiles of two builds can be compared.
  const profiling = (name) => {
    if (!options.profile) return [];
    const dir = path.join(root, 'tmp/bench/profiles', name.replace(/[^A-Za-z0-9.-]+/g, '_'));
    mkdirSync(dir, { recursive: true });
    return ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir];
  };
  // What each target is and how it starts (every round starts its own processes, see below), what it is
  // sent, and the baseline its ratio is paired with: the minimal proxy, or the era's MCP forwarder.
  const targets = [];
  for (const era of eras) {
    const call = callOf(era);
    const bundle = bundleOf(era, toolService.url);
    const named = (name) => (options.federation ? `${name} ${era}` : name);
    const gateway = (name, settings = {}) => ({
      name: named(name),
      call,
      start: () => startGateway(toolService.url, { bundle, nodeOptions: profiling(named(name)), ...settings }),
    });
    const baseline = options.federation
      ? { name: named('MCP forwarder'), call, start: () => startMcpForwarder(toolService.url) }
      : { name: 'minimal proxy', call, start: () => startMinimalProxy(toolService.url) };
    const ofEra = [gateway('gateway')];
    for (const main of options.compare) ofEra.push(gateway(path.relative(root, path.resolve(main)), { main: path.resolve(main) }));
    for (const assignments of options['compare-env']) {
      const env = Object.fromEntries(
        assignments
          .split(' ')
          .filter(Boolean)
          .map((pair) => pair.split('=', 2)),
      );
      ofEra.push(gateway(`gateway ${assignments}`, { env }));
    }
    for (const flags of options['compare-flags'])
      ofEra.push(gateway(`gateway ${flags}`, { nodeOptions: flags.split(' ').filter(Boolean) }));
    if (issuer) ofEra.push(gateway('gateway auth+limits', { extraYaml: issuer.yaml }));
    if (guardrail) ofEra.push(gateway('gateway webhook interceptor', { extraYaml: guardrail.yaml }));
    if (auditFolder) ofEra.push(gateway('gateway audit', { extraYaml: `audit: { file: "${path.join(auditFolder, 'audit.jsonl')}" }\n` }));
    if (limitsRedis) ofEra.push(gateway('gateway auth+limits in Redis', { extraYaml: issuer.yaml, env: { REDIS_URL: limitsRedis.url } }));
    const floor = (name, env = {}) => ({
      name: named(name),
      call,
      start: () => startRequiredWorkFloor({ [options.federation ? 'MCP_SERVER_URL' : 'TOOL_SERVICE_URL']: toolService.url, ...env }),
    });
    ofEra.push(floor('required-work floor'));
    if (issuer) ofEra.push(floor('floor auth+limits', { FLOOR_ISSUER: issuer.issuer, FLOOR_AUDIENCE: issuer.audience }));
    for (const parts of options['floor-without']) ofEra.push(floor(`floor without ${parts}`, { FLOOR_WITHOUT: parts }));
    ofEra.push(baseline);
    for (const target of ofEra) Object.assign(target, { baseline, reference: ofEra[0] });
    targets.push(...ofEra);
  }
  for (const target of targets) target.micros = [];

  console.log(
    `${rate ?? 'as many'} calls/s (${load}), ${connections} connections, ${warmupRuns} warm-up runs of ${warmupRunSeconds} s, ${duration} s per measurement, ${rounds} rounds, node ${process.version}\n`,
  );
  for (let round = 1; round <= rounds; round += 1) {
    // The order rotates every round: whichever target runs first in a round measured up to 15% cheaper.
    const shift = (round - 1) % targets.length;
    const order = [...targets.slice(shift), ...targets.slice(0, shift)];
    // Fresh processes every round, started in the round's order, as JMH forks a new JVM per fork: one
    // process of a build kept its own cost for a whole run (JIT choices, heap layout, its place in the
    // start order), so two identical builds in one run differed by up to 15% in every round.
    const running = [];
    for (const target of order) running.push({ target, name: target.name, ...(await target.start()) });
    for (const server of running) pinServer(server);
    // Warmed just before it is measured: a process left idle for a minute while the others were warmed
    // had V8 compile much of its hot path again in the measured run (20-30 us per call on the other
    // threads, against 2-10 us when measured at once), and more for the target with more code.
    const windows = options.together ? [running] : running.map((server) => [server]);
    for (const servers of windows) {
      for (const server of servers) await check(server.url, server.target.call, 'hello');
      for (let run = 0; run < warmupRuns; run += 1) await Promise.all(servers.map((server) => drive(server, warmupRunSeconds)));
      // With --together the tool service serves every target at once, so its share per target is not told.
      for (const row of await measure(servers, options.together ? undefined : toolService)) {
        row.server.target.micros.push(row.micros);
        const control =
          row.toolServiceMicros === undefined ? 'measured together' : `tool service ${row.toolServiceMicros.toFixed(1)} us/call`;
        console.log(
          `round ${round}  ${row.server.target.name.padEnd(26)} ${row.micros.toFixed(1).padStart(6)} us/call   (other threads ${row.otherThreadsMicros.toFixed(1)}, ${control}, ${row.calls} calls)`,
        );
      }
    }
    await Promise.all(running.map((server) => server.load?.close()));
    await Promise.all(running.map((server) => stopProcess(server.pid)));
  }
  // Paired per round: the neighbours on this machine change from minute to minute, and the targets of one
  // round share the same neighbours, so the median of per-round ratios is steadier than a ratio of medians.
  const baselineName = options.federation ? 'MCP forwarder' : 'minimal proxy';
  console.log(`\n${'us/call'.padEnd(26)}   median     min   paired: / ${baselineName}   / gateway`);
  const pairedWith = (target, base) => median(target.micros.map((micros, round) => micros / base.micros[round]));
  for (const target of targets) {
    const [mid, min] = [median(target.micros), Math.min(...target.micros)];
    console.log(
      `${target.name.padEnd(26)} ${mid.toFixed(1).padStart(8)} ${min.toFixed(1).padStart(7)}   ${pairedWith(target, target.baseline).toFixed(2)}x`.padEnd(
        68,
      ) + `${pairedWith(target, target.reference).toFixed(3)}   (single-threaded ceiling ${Math.round(1e6 / mid)} calls/s)`,
    );
  }
} finally {
  stopAll();
  guardrail?.server.close();
  if (auditFolder) rmSync(auditFolder, { recursive: true, force: true });
}
smokeRan(issuer ? 'gateway-auth' : options.federation ? 'gateway-federation' : 'cpu-per-call');
