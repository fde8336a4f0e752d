// The scaffolding of the hostile-* benchmarks: an attacked gateway measured against an idle twin started
// alike in the same run, calls and probes sent to each in turn so that both see the same machine, and every
// figure reported as a ratio attacked / twin (docs/benchmarks.md, "Hostile peers"). Each benchmark keeps
// its attack, its window and its table; what they share is here.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { cpuMicros, root, start } from './gateway/processes.mjs';

export const sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));

/**
 * The built gateway (`main`, this checkout's dist/ by default) on the configuration `yaml` (its `mcp:`
 * section; the ports are chosen by the system). Resolves `{ name, pid, mcpUrl, managementUrl }`.
 */
export async function startGateway(name, yaml, { main = path.join(root, 'dist/apps/gateway/main.js'), nodeOptions = [] } = {}) {
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'gw-twin-run-')), 'gateway.yaml');
  writeFileSync(config, `server: { port: 0, managementPort: 0 }\n${yaml}`);
  const started = await start(
    `gateway ${name}`,
    [main, '--config', config],
    {},
    /event=gateway_started (mcpUrl=\S+ managementUrl=\S+)/,
    nodeOptions,
  );
  const [, mcpUrl, managementUrl] = /mcpUrl=(\S+) managementUrl=(\S+)/.exec(started.url);
  return { name, pid: started.pid, mcpUrl, managementUrl };
}

export function alive(gateway) {
  try {
    process.kill(gateway.pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A memory figure of the gateway's /proc/<pid>/status (`VmRSS`, `VmHWM`) in MiB; NaN once it is gone. */
export function statusMib(gateway, field) {
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${gateway.pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** The gateway's user plus system CPU so far, in seconds. */
export const cpuSeconds = (gateway) => cpuMicros(gateway.pid) / 1e6;

/** Milliseconds `fn` took; rejects as `fn` does. */
export async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

let nextId = 1;
/** A `tools/call` of the 2025-11-25 era; resolves the JSON-RPC reply. */
export const callTool = (gateway, name, args, timeoutMillis) =>
  fetch(gateway.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } }),
    signal: AbortSignal.timeout(timeoutMillis),
  }).then((res) => res.json());

/** Milliseconds to a successful call of tool `name` (isError false); rejects on anything else. */
export const timedCall = (gateway, name, args, timeoutMillis) =>
  timed(async () => {
    const reply = await callTool(gateway, name, args, timeoutMillis);
    if (reply.result?.isError !== false) throw new Error(`${gateway.name}: ${name} failed: ${JSON.stringify(reply).slice(0, 300)}`);
  });

/** Milliseconds to a 200 of the gateway's liveness probe; rejects on anything else. */
export const timedLiveness = (gateway, timeoutMillis) =>
  timed(async () => {
    const res = await fetch(`${gateway.managementUrl}/actuator/health/liveness`, { signal: AbortSignal.timeout(timeoutMillis) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${gateway.name}: liveness answered ${res.status}`);
  });

/**
 * Waits until `call(gateway)` succeeds on each gateway (its catalogue is loaded), at most `withinMillis`
 * (a gateway that never serves fails the run rather than holding it), then sends each `warmUps` more.
 */
export async function servedAndWarm(gateways, call, { warmUps, withinMillis = 60_000 }) {
  const deadline = performance.now() + withinMillis;
  for (const gateway of gateways) {
    while (
      !(await call(gateway).then(
        () => true,
        () => false,
      ))
    ) {
      if (performance.now() > deadline) throw new Error(`gateway ${gateway.name} served no call within ${withinMillis / 1000} s`);
      await sleep(50);
    }
  }
  for (let i = 0; i < warmUps; i++) await Promise.all(gateways.map(call));
}

/**
 * The attacked gateway and its idle twin, started alike on `yaml` with `options` (those of `startGateway`),
 * both serving a neighbour's call (`tool` with `args`) and warmed by `warmUps` more. Resolves them with
 * `neighbour(gateway)` and `liveness(gateway)`: milliseconds to an answer, or undefined when none came (an
 * error, a timeout, a crash).
 */
export async function startTwins(yaml, options, { tool, args, timeoutMillis, warmUps }) {
  const [attacked, twin] = await Promise.all(['attacked', 'twin'].map((name) => startGateway(name, yaml, options)));
  const call = (gateway) => timedCall(gateway, tool, args, timeoutMillis);
  await servedAndWarm([attacked, twin], call, { warmUps });
  return {
    attacked,
    twin,
    neighbour: (gateway) => call(gateway).catch(() => undefined),
    liveness: (gateway) => timedLiveness(gateway, timeoutMillis).catch(() => undefined),
  };
}

/** How often each outcome came, printed as "<outcome> <n>, ..." in the order they first came. */
export class Tally {
  #counts = new Map();
  add(outcome) {
    this.#counts.set(outcome, (this.#counts.get(outcome) ?? 0) + 1);
  }
  toString() {
    return [...this.#counts].map(([outcome, n]) => `${outcome} ${n}`).join(', ');
  }
}

/** The middle value (the upper one of an even count); NaN for none. */
export const p50 = (values) => (values.length === 0 ? NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);
/** The values that are not undefined: the calls and probes that were answered. */
export const answered = (values) => values.filter((value) => value !== undefined);
export const ratio = (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? '-' : `**${(a / b).toFixed(2)}x**`);
export const share = (values) => `${answered(values).length} of ${values.length}`;

/** Prints a Markdown table: `header`, an array of column titles, and `rows`, arrays of cells ('' for none). */
export function printTable(header, rows) {
  const line = (cells) => `|${cells.map((cell) => (cell === '' ? ' ' : ` ${cell} `)).join('|')}|`;
  console.log(line(header));
  console.log(`|${header.map(() => '---|').join('')}`);
  for (const cells of rows) console.log(line(cells));
}

/**
 * One window of `attacked` against `twin`: `call(gateway)` (milliseconds to a successful call) on the
 * twin and on `attacked` in turn, so both see the same machine, and beside them liveness probes in turn,
 * on a loop of their own, so a probe waits out whatever holds the loop, for as long as `open()` resolves
 * true. What the attacked gateway does not answer counts as Infinity. Resolves the window's figures: echo
 * p50 as a ratio of the twin's, the longest liveness wait, CPU in the window and peak RSS (VmHWM) of each.
 */
export async function measureWindow(twin, attacked, { call, probeTimeoutMillis, open }) {
  const cpuAtStart = { twin: cpuSeconds(twin), attacked: cpuSeconds(attacked) };
  const samples = { twinEcho: [], echo: [], twinLive: [], live: [] };
  const windowStart = performance.now();
  let running = true;
  const probes = (async () => {
    while (running) {
      samples.twinLive.push(await timedLiveness(twin, probeTimeoutMillis));
      samples.live.push(await timedLiveness(attacked, probeTimeoutMillis).catch(() => Infinity)); // a crashed gateway: no answer
      await sleep(50);
    }
  })();
  while (await open()) {
    samples.twinEcho.push(await call(twin));
    samples.echo.push(await call(attacked).catch(() => Infinity));
    await sleep(20);
  }
  running = false;
  await probes;
  return {
    name: attacked.name,
    seconds: (performance.now() - windowStart) / 1000,
    echo: p50(samples.echo) / p50(samples.twinEcho),
    echoMax: Math.max(...samples.echo),
    live: Math.max(...samples.live.filter(Number.isFinite)),
    unanswered: samples.live.filter((value) => !Number.isFinite(value)).length,
    probes: samples.live.length,
    twinLive: Math.max(...samples.twinLive),
    cpu: cpuSeconds(attacked) - cpuAtStart.attacked,
    twinCpu: cpuSeconds(twin) - cpuAtStart.twin,
    hwm: statusMib(attacked, 'VmHWM'),
    twinHwm: statusMib(twin, 'VmHWM'),
    alive: alive(attacked),
  };
}

/** The table of `measureWindow` rows, each with its `outcome` (what became of the attack) under `outcomeTitle`. */
export function printWindows(outcomeTitle, rows) {
  const x = (value) => `${value.toFixed(2)}x`;
  printTable(
    [
      'gateway',
      outcomeTitle,
      'window',
      'echo p50 / twin (longest)',
      'longest answered liveness (twin)',
      'CPU in window (twin)',
      'peak RSS (twin)',
      'running',
    ],
    rows.map((row) => [
      row.name,
      row.outcome,
      `${row.seconds.toFixed(1)} s`,
      `${x(row.echo)} (${row.echoMax.toFixed(0)} ms)`,
      `${row.live.toFixed(0)} ms${row.unanswered ? `, ${row.unanswered} of ${row.probes} unanswered` : ''} (${row.twinLive.toFixed(0)} ms)`,
      `${row.cpu.toFixed(2)} s (${row.twinCpu.toFixed(2)} s)`,
      `${row.hwm.toFixed(0)} MiB, ${x(row.hwm / row.twinHwm)} (${row.twinHwm.toFixed(0)} MiB)`,
      row.alive ? 'yes' : 'no',
    ]),
  );
}
