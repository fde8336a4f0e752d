#!/usr/bin/env node
/**
 * Runs scenarios of the official MCP conformance suite (the devDependency, so no download) and prints one
 * line per scenario, then "N passed, M failed" (and how many of the passed warned). A scenario passes when
 * none of its checks is a FAILURE, the suite's own rule; one that passes with WARNING checks (a SHOULD not
 * met, or a check that could not be made) is printed as WARN with them, never as a plain pass.
 *
 *   node tools/conformance/run-conformance.js server <url> <scenario...>
 *   node tools/conformance/run-conformance.js client "<client command>" <scenario...>
 *
 * Options: --json prints {scenario: {passed, failures: [...], warnings: [...]}} instead; --suite 0.2 runs
 * 0.2.0-alpha.12 (installed as @modelcontextprotocol/conformance-2026) instead of 0.1.16;
 * --spec-version <v> is passed to the suite (0.2 only, e.g. 2026-07-28); --force is too: it runs an extension
 * scenario (tagged [extension], e.g. sep-2640-skills-*) that the suite would otherwise SKIP, writing no checks,
 * when a spec version is given. The JSON also lists each scenario's SUCCESS check ids (`successes`), so that a
 * caller can require the checks it means to show rather than count a scenario whose checks were all SKIPPED.
 * Exit code 0 when all passed.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

/** Runs the suite's invocations in one process (suite-runs.mjs says why), with the Node 20 shim it needs. */
const SUITE_RUNS = path.join(__dirname, 'suite-runs.mjs');
/** How long one scenario may take, as the suite itself allows it (30 s) with room for a loaded machine. */
const SCENARIO_TIMEOUT_MS = 120_000;

/** The suites installed, by the name `--suite` takes. */
const SUITE_PACKAGES = { 0.1: '@modelcontextprotocol/conformance', 0.2: '@modelcontextprotocol/conformance-2026' };

/** Runs the scenarios, each into an output folder of its own, and returns each one's verdict. */
function runScenarios(mode, target, scenarios, options) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const args = mode === 'server' ? ['server', '--url', target] : ['client', '--command', target];
  const versionOptions = [...(options.specVersion ? ['--spec-version', options.specVersion] : []), ...(options.force ? ['--force'] : [])];
  const outputs = scenarios.map((scenario) => path.join(work, scenario.replace(/\W/g, '-')));
  const runsFile = path.join(work, 'runs.json');
  const resultsFile = path.join(work, 'results.json');
  fs.writeFileSync(
    runsFile,
    JSON.stringify(scenarios.map((scenario, i) => [...args, '--scenario', scenario, ...versionOptions, '-o', outputs[i]])),
  );
  const run = spawnSync(process.execPath, [SUITE_RUNS, resultsFile, runsFile], {
    encoding: 'utf8',
    timeout: SCENARIO_TIMEOUT_MS * scenarios.length,
    env: { ...process.env, CONFORMANCE_PACKAGE: SUITE_PACKAGES[options.suite] },
  });
  const ran = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : [];
  const verdicts = scenarios.map((scenario, i) =>
    verdict(outputs[i], ran[i] ?? { code: run.status, output: `${run.stderr || run.stdout || run.error?.message || ''}` }),
  );
  fs.rmSync(work, { recursive: true, force: true });
  return Object.fromEntries(scenarios.map((scenario, i) => [scenario, verdicts[i]]));
}

/** A scenario passes when none of the checks it wrote is a FAILURE; one that wrote none fails. */
function verdict(out, { code, output }) {
  const checks = fs.existsSync(out) ? findChecks(out).flatMap((file) => JSON.parse(fs.readFileSync(file, 'utf8'))) : [];
  const described = (status) => checks.filter((c) => c.status === status).map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
  const failures = described('FAILURE');
  if (checks.length === 0) failures.push(`no results written (exit ${code}): ${output.slice(-500)}`);
  const successes = checks.filter((c) => c.status === 'SUCCESS').map((c) => c.id);
  return { passed: failures.length === 0, failures, warnings: described('WARNING'), successes };
}

function findChecks(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findChecks(full);
    return entry.name === 'checks.json' ? [full] : [];
  });
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      suite: { type: 'string', default: '0.1' },
      'spec-version': { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  });
  const [mode, target, ...scenarios] = positionals;
  if (!['server', 'client'].includes(mode) || !target || scenarios.length === 0 || !(values.suite in SUITE_PACKAGES)) {
    process.stderr.write(
      'usage: run-conformance.js server <url> | client "<command>" <scenario...> [--json] [--suite 0.1|0.2] [--spec-version <v>] [--force]\n',
    );
    process.exit(2);
  }
  const options = { suite: values.suite, specVersion: values['spec-version'], force: values.force };
  const json = values.json;
  const results = runScenarios(mode, target, scenarios, options);
  const failed = Object.values(results).filter((r) => !r.passed).length;
  if (json) process.stdout.write(`${JSON.stringify(results)}\n`);
  else {
    for (const [scenario, r] of Object.entries(results)) {
      const verdict = !r.passed ? 'FAIL' : r.warnings.length > 0 ? 'WARN' : 'PASS';
      process.stdout.write(`${verdict} ${scenario}\n${[...r.failures, ...r.warnings].map((f) => `     ${f}\n`).join('')}`);
    }
    const warned = Object.values(results).filter((r) => r.passed && r.warnings.length > 0).length;
    process.stdout.write(`${scenarios.length - failed} passed${warned > 0 ? ` (${warned} with warnings)` : ''}, ${failed} failed\n`);
  }
  process.exit(failed === 0 ? 0 : 1);
}

main();
