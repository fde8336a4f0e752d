const fs = require('node:fs');
const path = require('node:path');

/**
 * What `npm test` runs for a set of projects: every project, or (`npm test -- --affected`, the pull-request
 * job) those a change affects. One list of phases for both, so a pull request runs what the README runs,
 * for less: lint, typecheck, build and test of the projects in Nx runs, and the --smoke run of every
 * benchmark when `bench` is among them (nxSteps), then, alone, the smoke tests of the README's commands of
 * each app among them (they rebuild dist/).
 */
const root = path.resolve(__dirname, '..', '..');
const BENCH = { project: 'bench', config: 'tools/bench/jest.bench.config.js' };
const SMOKE = { project: 'smoke', config: 'tools/smoke/jest.smoke.config.js' };
const SMOKE_SUITES = 'tools/smoke/src';

/**
 * The projects whose tests take longest, about 11 minutes each on two cores, most of it spent waiting on
 * the processes they start. One Nx run would start them last: Nx runs first the tasks of the projects
 * most others depend on, so these apps' tests began after every lint and typecheck and set the run's end.
 */
const LONGEST_TESTS = ['gateway', 'agent-cli'];

const nxRun = (targets, projects, ...flags) => [
  'nx',
  'run-many',
  '-t',
  targets,
  `--projects=${projects.join(',')}`,
  '--output-style=static',
  ...flags,
];

/**
 * The Nx runs, as steps one after another; a step's lanes (named for the time report) run side by side,
 * each lane's runs in turn.
 * Everything is built first, so the test runs after it skip their build dependencies
 * (--exclude-task-dependencies) and never rebuild dist/ under a running test. Then the longest tests start
 * at once, each in a slot of its own, while one more slot runs the lint and typecheck of every project
 * (lint keeps its own dependencies: knip and format-check) and then the other projects' tests: three tasks
 * at a time, as the single run had.
 * When every project runs, their lint is one ESLint run over the workspace (architecture:lint-workspace, the
 * same rules on the same files): each project's own run types the libraries it imports again, which cost
 * about 50 s of CPU more in all.
 * The benchmarks' --smoke runs (tools/bench/benches.spec.ts) end that lane. Run alone after the Nx runs they
 * added their 2m38s to the run's end, though that lane ended about two minutes before the longest tests,
 * which wait on the processes they start more than they use the cores (a fresh clone of 27eef90: 12m04s and
 * 14m00s). The specs beside them have shared the cores with a lane of checks all along.
 */
function nxSteps(projects, { everyProject = false } = {}) {
  const longest = LONGEST_TESTS.filter((project) => projects.includes(project));
  const others = projects.filter((project) => !longest.includes(project));
  const lane = (name, ...runs) => ({ name, runs: runs.filter((run) => run !== null) });
  const testsOf = (list, parallel) =>
    list.length === 0 ? null : nxRun('test', list, '--exclude-task-dependencies', `--parallel=${parallel}`);
  return [
    [lane('nx build', nxRun('build', projects))],
    [
      lane(`nx test ${longest.join(', ')}`, testsOf(longest, longest.length)),
      lane(
        'nx lint, typecheck, other tests, bench',
        everyProject ? nxRun('typecheck', projects, '--parallel=1') : nxRun('lint,typecheck', projects, '--parallel=1'),
        everyProject ? ['nx', 'run', 'architecture:lint-workspace', '--output-style=static'] : null,
        testsOf(others, 1),
        projects.includes(BENCH.project) ? ['jest', '-c', BENCH.config] : null,
      ),
    ].filter(({ runs }) => runs.length > 0),
  ];
}

/** tools/smoke/src holds one folder per app, named after its project: the smoke tests of that app's commands. */
function smokeSuites() {
  return fs
    .readdirSync(path.join(root, SMOKE_SUITES), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * The Jest runs after the Nx run, one at a time, each reporting under its project's name like any other.
 * A change to the smoke project itself (its specs, its config) runs all of its suites.
 */
function aloneRuns(projects) {
  const runs = [];
  const suites = smokeSuites().filter((app) => projects.includes(SMOKE.project) || projects.includes(app));
  if (suites.length > 0) runs.push({ ...SMOKE, paths: suites.map((app) => `${SMOKE_SUITES}/${app}/`) });
  return runs;
}

/** The projects among `projects` whose tests must leave a summary: those with a Jest config, and the runs alone. */
function projectsWithTests(projects) {
  const withJestConfig = ['apps', 'libs', 'tools'].flatMap((group) => {
    const dir = path.join(root, group);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((name) => fs.existsSync(path.join(dir, name, 'jest.config.js')))
      .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name, 'project.json'), 'utf8')).name);
  });
  const bench = projects.includes(BENCH.project) ? [BENCH.project] : [];
  return [
    ...withJestConfig.filter((project) => projects.includes(project)),
    ...bench,
    ...aloneRuns(projects).map(({ project }) => project),
  ];
}

module.exports = { nxSteps, aloneRuns, projectsWithTests };
