/**
 * A forwarded call's cancellation (docs/benchmarks.md, "Federated tool calls"): what the gateway pays per
 * call for what the exchange listens to, Node's `AbortController` (its signal, one listener added and
 * removed) against our `Cancellation` (libs/protocol), in the same run, 32 of them alive at a time as 32
 * calls in flight would be. Prints ns per call for each, their ratio, and the garbage collections each
 * caused (old-space ones are what a gateway under load feels). Run: `node tools/bench/cancellation/run.mjs`.
 */
import { PerformanceObserver } from 'node:perf_hooks';

import { Cancellation } from '@toolmesh/protocol';

import { SMOKE, smokeRan } from '../smoke.mjs';

const CALLS = SMOKE ? 2_000 : 300_000;
const ROUNDS = SMOKE ? 1 : 5;
const IN_FLIGHT = 32;
const listener = () => undefined;

const kinds: Record<string, () => unknown> = {
  AbortController: () => {
    const signal = new AbortController().signal;
    signal.addEventListener('abort', listener, { once: true });
    signal.removeEventListener('abort', listener);
    return signal;
  },
  Cancellation: () => {
    const cancellation = new Cancellation();
    cancellation.onAbort(listener);
    cancellation.offAbort(listener);
    return cancellation;
  },
};

const collections = { minor: 0, major: 0 };
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (kind === 1)
      collections.minor += 1; // NODE_PERFORMANCE_GC_MINOR
    else collections.major += 1;
  }
});
observer.observe({ entryTypes: ['gc'] });

/** Garbage collections are reported to the observer a little later, on the event loop. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 100));

/** ns per call over CALLS calls, and the collections they caused. */
async function measure(make: () => unknown): Promise<{ ns: number; minor: number; major: number }> {
  const alive: unknown[] = new Array(IN_FLIGHT);
  await settled(); // the previous run's collections are reported
  collections.minor = 0;
  collections.major = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) alive[i % IN_FLIGHT] = make();
  const ns = Number(process.hrtime.bigint() - started) / CALLS;
  await settled();
  return { ns, ...collections };
}

async function main(): Promise<void> {
  const results: Record<string, number[]> = { AbortController: [], Cancellation: [] };
  let gcs = '';
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, make] of Object.entries(kinds)) {
      const { ns, minor, major } = await measure(make);
      results[name].push(ns);
      if (round === ROUNDS - 1) gcs += `  ${name}: ${minor} minor, ${major} major collections in ${CALLS} calls\n`;
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const [abort, cancellation] = [median(results.AbortController), median(results.Cancellation)];
  console.log(`${CALLS} calls, ${IN_FLIGHT} alive at a time, ${ROUNDS} rounds, node ${process.version}`);
  console.log(`AbortController (signal, listener added and removed): ${abort.toFixed(0)} ns per call (median)`);
  console.log(`Cancellation (listener added and removed):            ${cancellation.toFixed(0)} ns per call (median)`);
  console.log(`ratio AbortController / Cancellation: ${(abort / cancellation).toFixed(1)}x`);
  console.log(`last round:\n${gcs}`);
  observer.disconnect();
}

main().then(
  () => smokeRan('cancellation'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
