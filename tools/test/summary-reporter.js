const fs = require('node:fs');
const path = require('node:path');

/**
 * Jest reporter that records one project's counts in tmp/test-summary/<project>.json. The file is the
 * test target's declared output, so Nx restores it on a cache hit and the summary stays complete.
 * tools/test/run-all.js adds the files up into the closing "N passed, N failed" line that CI reads.
 */
const HANG_MS = 30_000;

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const project = process.env.NX_TASK_TARGET_PROJECT || path.basename(this.rootDir);
    const summary = {
      project,
      passed: results.numPassedTests,
      // A suite that cannot even load fails no test but must still fail the run.
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    const dir = path.join(__dirname, '..', '..', 'tmp', 'test-summary');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${project}.json`), `${JSON.stringify(summary)}\n`);

    // On two cores Jest runs the tests in its own process (in band), where a handle a test leaked would keep
    // it alive after the run, silently and for ever. Say so and end it; the counts above are recorded.
    setTimeout(() => {
      process.stderr.write(
        `${project}: Jest has not exited ${HANG_MS / 1000} s after its run: a test left a handle open (find it with --detectOpenHandles)\n`,
      );
      process.exit(results.success ? 0 : 1);
    }, HANG_MS).unref();
  }
}

module.exports = SummaryReporter;
