/**
 * Smoke tests of the README's own commands (`npx nx serve gateway`). tools/test/run-all.js runs them after
 * the Nx run, alone, because they rebuild dist/apps/*, which the other projects' tests start processes
 * from. Named jest.smoke.config.js so that Nx's jest plugin gives this project no test target: Nx lints
 * and typechecks it with the others but never schedules its tests beside theirs.
 * @type {import('jest').Config}
 */
module.exports = {
  displayName: 'smoke',
  preset: '../../jest.preset.js',
};
