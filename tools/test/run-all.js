#!/usr/bin/env node
/**
 * `npm test`: lint, typecheck, build and test every project in Nx runs, and the --smoke run of every
 * benchmark (the longest tests beside the checks, tools/test/test-plan.js says how), then, alone, the smoke
 * tests of the README's own commands (tools/test/test-plan.js says which and why), then print the closing
 * line that CI reads: "N passed, N failed". Failed lint / typecheck
 * / build tasks and projects whose tests left no summary count as failures too, so the line never reads
 * better than the run was. Before any phase it checks for the programs the tests start
 * (tools/test/test-services-preflight.js); after them it prints the time each phase took.
 *
 * `npm test -- --affected` (the pull-request job) runs the same phases for the projects a change affects
 * between NX_BASE and NX_HEAD (set by nrwl/nx-set-shas in CI; by default Nx's base, main, and HEAD);
 * `--dry-run` prints the commands of the phases instead of running them.
 *
 * The run can never outlast CI. Each phase runs in a process group of its own whose output passes through
 * this process, so a process a test leaked (or a daemon that left the group) cannot hold CI's output open
 * after the run; what is left in the group when its leader ends is killed. A heartbeat says which projects'
 * tests are running, and past the budget (TEST_BUDGET_MINUTES, 50 by default, for all phases together) the
 * phase is killed, named, and counted as failed.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');

const { descendantsOf, groupOf, processesInGroup } = require('./process-group');
const { aloneRuns, nxSteps, projectsWithTests } = require('./test-plan');
const { ensureTestServices } = require('./test-services-preflight');

const root = path.resolve(__dirname, '..', '..');
const summaryDir = path.join(root, 'tmp', 'test-summary');
const BUDGET_MS = Number(process.env.TEST_BUDGET_MINUTES || 50) * 60_000;
const HEARTBEAT_MS = 5 * 60_000;
const started = Date.now();

// CI may stop reading (its own time limit); the run still ends its groups and exits rather than dying on EPIPE.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);

function clock(ms = Date.now() - started) {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/**
 * "apps/agent-cli (jest, 4m12s)" for each Jest process the phase started: where the time goes. Jest's own
 * executable only: an Nx plugin worker loading `@nx/jest/plugin` is none.
 */
function runningTests(leader) {
  return descendantsOf(leader)
    .filter(({ command }) => /[\\/]\.bin[\\/]jest\b/.test(command))
    .map(({ cwd, ageMs }) => `${path.relative(root, cwd) || '.'} (jest, ${clock(ageMs)})`);
}

/**
 * Runs one phase in a process group of its own, its output passed through (and kept when `keep`), until it
 * exits or the budget is spent. Resolves to its exit code (1 when killed) and the output kept.
 */
function runPhase(name, command, args, { env = process.env, keep = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      if (keep) output += chunk;
    });
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));

    const heartbeat = setInterval(() => {
      const running = runningTests(child.pid);
      console.log(`[${clock()}] ${name} still running${running.length > 0 ? `: ${running.join(', ')}` : ''}`);
    }, HEARTBEAT_MS);
    let timedOut = false;
    const budget = setTimeout(
      () => {
        timedOut = true;
        const running = runningTests(child.pid);
        console.log(
          `[${clock()}] ${name} is over the test budget of ${clock(BUDGET_MS)}; killed while running: ${running.join(', ') || 'no test'}`,
        );
        killTree(child.pid);
      },
      Math.max(0, BUDGET_MS - (Date.now() - started)),
    );

    child.on('exit', (code) => {
      clearInterval(heartbeat);
      clearTimeout(budget);
      const leftovers = processesInGroup(child.pid);
      if (leftovers.length > 0) {
        console.log(
          `[${clock()}] ${name}: ${leftovers.length} process(es) outlived it and are killed: ${leftovers.map((p) => p.command.slice(0, 120)).join(' | ')}`,
        );
        killGroup(child.pid);
      }
      // What is still buffered in the pipes arrives at once; a pipe a stray process still holds is not waited for.
      const done = () => resolve({ code: timedOut ? 1 : (code ?? 1), output, timedOut });
      let open = 2;
      const closed = () => --open === 0 && done();
      for (const stream of [child.stdout, child.stderr]) {
        if (stream.readableEnded) closed();
        else stream.once('end', closed);
      }
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        if (open > 0) done();
      }, 2000).unref();
    });
  });
}

function killGroup(group) {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The phase and everything it started, in whatever process group (Nx gives each task its own). */
function killTree(leader) {
  const groups = new Set([leader, ...descendantsOf(leader).map((entry) => entry.pgrp)]);
  groups.delete(groupOf(process.pid)); // never this runner's own
  for (const group of groups) killGroup(group);
}

/** Nx lists failed tasks after "Failed tasks:" as "- project:target". */
function failedNonTestTasks(output) {
  const plain = stripVTControlCharacters(output);
  const block = plain.split('Failed tasks:')[1] ?? '';
  return [...block.matchAll(/^\s*-\s+([\w.-]+:[\w-]+)/gm)].map((m) => m[1]).filter((task) => !task.endsWith(':test'));
}

/** The projects this run covers: all, or those a change affects (Nx reads NX_BASE and NX_HEAD). */
function projectsToRun(affected) {
  const list = spawnSync('npx', ['nx', 'show', 'projects', '--json', ...(affected ? ['--affected'] : [])], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (list.status !== 0) throw new Error(`nx show projects failed with ${list.status ?? list.signal}`);
  return JSON.parse(list.stdout).sort();
}

/** "nx build 1m02s, ..., smoke 1m10s": where the run's time went, printed before the closing line. */
const phaseTimes = [];
async function timed(name, phase) {
  const phaseStarted = Date.now();
  const result = await phase();
  phaseTimes.push(`${name} ${clock(Date.now() - phaseStarted)}`);
  console.log(`[${clock()}] ${name} ended after ${clock(Date.now() - phaseStarted)}`);
  return result;
}

/** Runs one lane's Nx runs in turn, each a phase of its own, and adds their results (code, output) to `results`. */
async function runLane({ name, runs }, results) {
  for (const args of runs) results.push(await runPhase(name, 'npx', args, { keep: true }));
}

async function main() {
  const dryRun = process.argv.includes('--dry-run');
  if (!dryRun && !ensureTestServices()) {
    process.exitCode = 1;
    return;
  }
  const affected = process.argv.includes('--affected');
  const projects = projectsToRun(affected);
  const steps = nxSteps(projects, { everyProject: !affected });
  const jestRuns = aloneRuns(projects).map((run) => ({ ...run, args: ['jest', '-c', run.config, ...run.paths] }));
  if (projects.length === 0) {
    console.log('no project is affected\n0 passed, 0 failed');
    return;
  }
  if (dryRun) {
    const nxCommands = steps.flat().flatMap((lane) => lane.runs);
    for (const args of [...nxCommands, ...jestRuns.map((run) => run.args)]) console.log(`npx ${args.join(' ')}`);
    return;
  }

  fs.rmSync(summaryDir, { recursive: true, force: true });
  const nxRuns = [];
  for (const lanes of steps) await Promise.all(lanes.map((lane) => timed(lane.name, () => runLane(lane, nxRuns))));
  let aloneFailed = false;
  for (const { project, args } of jestRuns) {
    const run = await timed(project, () => runPhase(project, 'npx', args, { env: { ...process.env, NX_TASK_TARGET_PROJECT: project } }));
    if (run.code !== 0) aloneFailed = true;
  }

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const missing = [];
  const expected = projectsWithTests(projects);
  for (const project of expected) {
    const file = path.join(summaryDir, `${project}.json`);
    if (!fs.existsSync(file)) {
      missing.push(project);
      continue;
    }
    const summary = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += summary.passed;
    failed += summary.failed;
    skipped += summary.skipped;
  }
  const failedTasks = nxRuns.flatMap((run) => failedNonTestTasks(run.output));
  if (failedTasks.length > 0) console.log(`failed checks: ${failedTasks.join(', ')}`);
  if (missing.length > 0) console.log(`projects whose tests did not report: ${missing.join(', ')}`);
  failed += failedTasks.length + missing.length;
  if ((nxRuns.some((run) => run.code !== 0) || aloneFailed) && failed === 0) failed = 1; // a failure no summary reported; never print a clean line

  console.log(`time per phase: ${phaseTimes.join(', ')}; npm test ${clock()} in all`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failed > 0 || (passed === 0 && expected.length > 0) ? 1 : 0;
}

void main();
