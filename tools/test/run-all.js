#!/usr/bin/env node
/**
 * `npm test`: lint, typecheck, build and test every project in one Nx run, then, each alone, the --smoke
 * run of every benchmark (tools/bench: they load both cores for minutes, which would make the timing
 * margins of the specs beside them flaky) and the smoke tests of the README's own commands (tools/smoke:
 * they rebuild dist/), then print the closing line that CI
 * reads: "N passed, N failed". Failed lint / typecheck / build tasks and projects whose tests
 * left no summary count as failures too, so the line never reads better than the run was.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');

const root = path.resolve(__dirname, '..', '..');
const summaryDir = path.join(root, 'tmp', 'test-summary');

/** Jest runs after the Nx run, one at a time, each reporting under its project's name like any other. */
const ALONE = [
  { project: 'bench', config: 'tools/bench/jest.bench.config.js' },
  { project: 'smoke', config: 'tools/smoke/jest.smoke.config.js' },
];

function projectsWithTests() {
  const projects = ['apps', 'libs', 'tools'].flatMap((group) => {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((name) => fs.existsSync(path.join(dir, name, 'jest.config.js')))
      .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name, 'project.json'), 'utf8')).name);
  });
  return [...projects, ...ALONE.map(({ project }) => project)];
}

function runAlone({ project, config }) {
  return new Promise((resolve) => {
    const child = spawn('npx', ['jest', '-c', config], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NX_TASK_TARGET_PROJECT: project },
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

function runNx() {
  return new Promise((resolve) => {
    const args = ['nx', 'run-many', '-t', 'lint,typecheck,build,test', '--output-style=static'];
    const child = spawn('npx', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Nx lists failed tasks after "Failed tasks:" as "- project:target". */
function failedNonTestTasks(output) {
  const plain = stripVTControlCharacters(output);
  const block = plain.split('Failed tasks:')[1] ?? '';
  return [...block.matchAll(/^\s*-\s+([\w.-]+:[\w-]+)/gm)].map((m) => m[1]).filter((task) => !task.endsWith(':test'));
}

async function main() {
  fs.rmSync(summaryDir, { recursive: true, force: true });
  const { code, output } = await runNx();
  let aloneFailed = false;
  for (const run of ALONE) if ((await runAlone(run)) !== 0) aloneFailed = true;

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const missing = [];
  for (const project of projectsWithTests()) {
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
  const failedTasks = failedNonTestTasks(output);
  if (failedTasks.length > 0) console.log(`failed checks: ${failedTasks.join(', ')}`);
  if (missing.length > 0) console.log(`projects whose tests did not report: ${missing.join(', ')}`);
  failed += failedTasks.length + missing.length;
  if ((code !== 0 || aloneFailed) && failed === 0) failed = 1; // a failure no summary reported; never print a clean line

  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

main();
