import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

/**
 * CI that a fork can run: the workflow and .ci/run install what the tests start with one script, then run
 * the same `npm ci` and `npm test` (on a pull request, its phases for the affected projects). The workflow
 * is hardened: actions pinned by commit, a read-only token, superseded runs cancelled, and job timeouts
 * above the runner's own budget, so the runner kills and reports a hung run before the job is cancelled.
 */
const ROOT = path.resolve(__dirname, '../../..');
const INSTALL = 'bash tools/ci/install-test-services.sh';
const WORKFLOW = '.github/workflows/ci.yml';
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  'runs-on': string;
  'timeout-minutes'?: number;
  permissions?: unknown;
  strategy?: { matrix?: Record<string, unknown[]> };
  steps: Step[];
}
interface Workflow {
  env?: Record<string, string>;
  permissions?: unknown;
  concurrency?: { group?: string; 'cancel-in-progress'?: boolean };
  jobs: Record<string, Job>;
}

const workflow = () => parseYaml(read(WORKFLOW)) as Workflow;
const workflowJobs = () => workflow().jobs;
const stepNames = (job: Job) => job.steps.map((step) => step.uses?.replace(/@.*/, '') ?? step.run);
const SET_UP = ['actions/checkout', 'actions/setup-node', INSTALL, 'npm ci --no-audit --no-fund'];

/** The majors package.json's engines admit from their lowest version on: ">=20.19 <21 || >=22" is 20 and 22. */
const supportedNodeMajors = () =>
  (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node
    .split('||')
    .map((range) => Number(/>=\s*(\d+)/.exec(range)?.[1]));

/** npm test's budget for all its phases (tools/test/run-all.js), in minutes. */
const testBudgetMinutes = () => Number(/TEST_BUDGET_MINUTES \|\| (\d+)/.exec(read('tools/test/run-all.js'))?.[1]);

describe('CI', () => {
  it('on pushes to main the workflow runs on a stock Ubuntu runner: checkout, Node, the install script, npm ci, npm test', () => {
    const job = workflowJobs().main;
    expect(job.if).toBe("github.event_name == 'push'");
    expect(job['runs-on']).toMatch(/^ubuntu-/);
    expect(stepNames(job)).toEqual([...SET_UP, 'npm test']);
  });

  it("on pushes to main it runs on every Node major package.json's engines admit", () => {
    const job = workflowJobs().main;
    expect(job.strategy?.matrix?.node).toEqual(supportedNodeMajors());
    expect(job.steps[1].with?.['node-version']).toBe('${{ matrix.node }}');
  });

  it("on pull requests it runs npm test's phases for the affected projects, against the merge base, on the lowest Node", () => {
    const job = workflowJobs().affected;
    expect(job.if).toBe("github.event_name == 'pull_request'");
    expect(job['runs-on']).toMatch(/^ubuntu-/);
    expect(stepNames(job)).toEqual([...SET_UP, 'nrwl/nx-set-shas', 'npm test -- --affected']);
    expect(job.steps[0].with?.['fetch-depth']).toBe(0); // the merge base is in the history a shallow clone lacks
    expect(job.steps[1].with?.['node-version']).toBe(supportedNodeMajors()[0]);
  });

  it('pins every action by a full commit SHA, with its tag in a comment', () => {
    const uses = read(WORKFLOW)
      .split('\n')
      .filter((line) => /^\s*(-\s+)?uses:/.test(line));
    expect(uses.length).toBe(Object.values(workflowJobs()).flatMap((job) => job.steps.filter((step) => step.uses)).length);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('gives the token read access to the contents only, and no job more', () => {
    expect(workflow().permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(workflowJobs())) expect(job.permissions).toBeUndefined();
  });

  it('cancels a run superseded by a newer push to the same pull request or branch', () => {
    const { concurrency } = workflow();
    expect(concurrency?.['cancel-in-progress']).toBe(true);
    expect(concurrency?.group).toContain('github.event.pull_request.number || github.ref');
  });

  it("gives every job more time than npm test's budget and its set-up, so the runner reports a hung run first", () => {
    expect(testBudgetMinutes()).toBeGreaterThan(0);
    expect(workflow().env).not.toHaveProperty('TEST_BUDGET_MINUTES'); // the budget is the runner's default
    for (const job of Object.values(workflowJobs())) expect(job['timeout-minutes']).toBeGreaterThanOrEqual(testBudgetMinutes() + 15);
  });

  it('.ci/run installs with the same script, then runs the same commands, timing its set-up phases', () => {
    const lines = read('.ci/run').split('\n');
    const commands = lines.map((line) => /^(?:phase '[^']+' )?((?:bash|npm) .*)$/.exec(line)?.[1]).filter(Boolean);
    expect(commands).toEqual([INSTALL, 'npm ci --no-audit --no-fund', 'npm test']);
    expect(lines.filter((line) => line.startsWith('phase '))).toHaveLength(2);
    expect(lines.at(-2)).toBe('npm test'); // its closing line "N passed, N failed" stays the last
  });

  it('the script installs redis-server and nginx, and on a machine that has both does nothing and says nothing', () => {
    const script = read('tools/ci/install-test-services.sh');
    expect(script).toContain('missing+=(redis-server)');
    expect(script).toContain('missing+=(nginx)');
    // the tests need both here too (they start them), so this machine has both
    const run = spawnSync('bash', ['tools/ci/install-test-services.sh'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: `${process.env.PATH ?? ''}:/usr/sbin` },
    });
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '', '']);
  });
});
