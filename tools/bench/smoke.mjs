// `--smoke`: how npm test runs each benchmark (tools/bench/benches.spec.ts): its whole path, with the
// smallest settings, for seconds. A figure measured so, on a test machine under load, would be noise, so
// under --smoke a benchmark's console.log prints nothing and writes no tmp/bench/*.json; the run ends with
// the one line the spec looks for. Imported before a benchmark's own code runs, as every import is.
import './usage.mjs';

export const SMOKE = process.argv.includes('--smoke');

/** How long a smoke run drives a load: enough for its path to be taken many times, not enough to measure anything (as a string, like the options it defaults). */
export const SMOKE_SECONDS = '0.3';

if (SMOKE) console.log = () => undefined;

/** The last line of a smoke run. */
export function smokeRan(name) {
  if (SMOKE) process.stdout.write(`smoke: ${name} ran\n`);
}
