#!/usr/bin/env node
/**
 * Runs the conformance suite several times in one process, one invocation after another:
 *
 *   node tools/conformance/suite-runs.mjs <results.json> <runs.json>
 *
 * runs.json is a list of argument lists, each what `conformance.mjs` would be given (e.g. ["server", "--url",
 * u, "--scenario", s, "-o", dir]); results.json receives, in the same order, {code, output} per run: the exit
 * code the suite asked for and what it printed. CONFORMANCE_PACKAGE picks the suite, as for conformance.mjs.
 *
 * Why: each start of the suite loads its dependencies (the MCP SDK, express, undici, octokit, ...) for about a
 * second of CPU, and the specs run some two hundred scenarios, one invocation each. Here they load once; each
 * run evaluates the suite's own bundle afresh (a new module instance, so no scenario sees another's state)
 * with process.argv set to its arguments. The suite ends a run by calling process.exit, which is replaced
 * meanwhile: the call records the code and throws, so nothing of the finished run goes on; that throw, which
 * the suite's command handler cannot pass anywhere (it is an async action of a synchronous parse), is
 * swallowed here. A run that has not ended after RUN_TIMEOUT_MS stops the whole process; results.json then
 * holds the runs before it, and the caller counts the others as runs that wrote nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';

if (Number(process.versions.node.split('.')[0]) < 22) register('./node20-fs-hooks.mjs', import.meta.url);

const RUN_TIMEOUT_MS = 150_000;
const SIGNALS = ['SIGINT', 'SIGTERM'];

const require = createRequire(import.meta.url);
const suitePackage = process.env.CONFORMANCE_PACKAGE ?? '@modelcontextprotocol/conformance';
const suite = pathToFileURL(require.resolve(`${suitePackage}/package.json`).replace(/package\.json$/, 'dist/index.js')).href;

/** Thrown by the stand-in process.exit to end a run where the suite meant to end its process. */
class RunEnded extends Error {}

const swallowRunEnded = (error) => {
  if (!(error instanceof RunEnded)) {
    process.stderr.write(`suite-runs: ${error?.stack ?? error}\n`);
    process.exit(1);
  }
};
process.on('unhandledRejection', swallowRunEnded);
process.on('uncaughtException', swallowRunEnded);

async function runOnce(args, index) {
  let output = '';
  let ended = false;
  let endRun;
  const code = new Promise((resolve) => (endRun = resolve));
  const saved = { argv: process.argv, exit: process.exit, log: console.log, error: console.error, warn: console.warn, info: console.info };
  const listeners = Object.fromEntries(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const capture = (...values) => {
    if (!ended) output += `${format(...values)}\n`;
  };
  Object.assign(console, { log: capture, error: capture, warn: capture, info: capture });
  process.argv = [process.execPath, 'conformance', ...args];
  process.exit = (exitCode) => {
    if (!ended) endRun(exitCode ?? 0);
    ended = true;
    throw new RunEnded();
  };
  const timer = setTimeout(() => {
    process.stderr.write(`suite-runs: run ${index + 1} (${args.join(' ')}) did not end within ${RUN_TIMEOUT_MS / 1000} s\n`);
    process.exit(1);
  }, RUN_TIMEOUT_MS);
  try {
    await import(`${suite}?run=${index}`);
    return { code: await code, output };
  } finally {
    clearTimeout(timer);
    ended = true;
    Object.assign(console, { log: saved.log, error: saved.error, warn: saved.warn, info: saved.info });
    process.argv = saved.argv;
    process.exit = saved.exit;
    // Each instance of the suite adds its own signal handlers; keep only the ones there were.
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal)) if (!listeners[signal].includes(listener)) process.off(signal, listener);
    }
  }
}

const [resultsFile, runsFile] = process.argv.slice(2);
if (!resultsFile || !runsFile) {
  process.stderr.write('usage: suite-runs.mjs <results.json> <runs.json>\n');
  process.exit(2);
}
const runs = JSON.parse(readFileSync(runsFile, 'utf8'));
const results = [];
for (const [index, args] of runs.entries()) {
  results.push(await runOnce(args, index));
  writeFileSync(resultsFile, JSON.stringify(results));
}
// A scenario's servers or timers may still be open; every run has ended.
process.exit(0);
