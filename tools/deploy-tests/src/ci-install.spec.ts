import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

/**
 * CI that a fork can run: the workflow and .ci/run install what the tests start with one script, then run
 * the same `npm ci` and `npm test`.
 */
const ROOT = path.resolve(__dirname, '../../..');
const INSTALL = 'bash tools/ci/install-test-services.sh';
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  'runs-on': string;
  steps: Step[];
}

const workflowJobs = () => (parseYaml(read('.github/workflows/ci.yml')) as { jobs: Record<string, Job> }).jobs;
const stepNames = (job: Job) => job.steps.map((step) => step.uses?.replace(/@.*/, '') ?? step.run);
const SET_UP = ['actions/checkout', 'actions/setup-node', INSTALL, 'npm ci --no-audit --no-fund'];

describe('CI', () => {
  it('on pushes to main the workflow runs on a stock Ubuntu runner: checkout, Node 20, the install script, npm ci, npm test', () => {
    const job = workflowJobs().main;
    expect(job.if).toBe("github.event_name == 'push'");
    expect(job['runs-on']).toMatch(/^ubuntu-/);
    expect(stepNames(job)).toEqual([...SET_UP, 'npm test']);
    expect(job.steps[1].with?.['node-version']).toBe(20);
  });

  it('on pull requests it runs lint, typecheck, build and test of the affected projects, against the merge base', () => {
    const job = workflowJobs().affected;
    expect(job.if).toBe("github.event_name == 'pull_request'");
    expect(job['runs-on']).toMatch(/^ubuntu-/);
    expect(stepNames(job)).toEqual([...SET_UP, 'nrwl/nx-set-shas', 'npx nx affected -t lint,typecheck,build,test --output-style=static']);
    expect(job.steps[0].with?.['fetch-depth']).toBe(0); // the merge base is in the history a shallow clone lacks
    expect(job.steps[1].with?.['node-version']).toBe(20);
  });

  it('.ci/run installs with the same script, then runs the same commands', () => {
    const commands = read('.ci/run')
      .split('\n')
      .filter((line) => /^(bash|npm) /.test(line));
    expect(commands).toEqual([INSTALL, 'npm ci --no-audit --no-fund', 'npm test']);
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
