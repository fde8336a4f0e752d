import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from '../../../../tools/test/server-process';

type Results = Record<string, { passed: boolean; failures: string[] }>;

/** Runs the official conformance suite's server scenarios against `url` (tools/conformance/run-conformance.js). */
export async function runSuite(url: string, scenarios: readonly string[], options: string[] = []): Promise<Results> {
  const runner = path.join(REPO_ROOT, 'tools/conformance/run-conformance.js');
  const { stdout } = await promisify(execFile)(process.execPath, [runner, 'server', url, ...scenarios, '--json', ...options]).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout }),
  );
  return JSON.parse(stdout) as Results;
}

/** Every scenario asked for ran, and none failed a check. */
export function expectPassing(results: Results, scenarios: readonly string[]): void {
  expect(Object.keys(results)).toEqual(scenarios);
  for (const [scenario, result] of Object.entries(results))
    expect({ scenario, failures: result.failures }).toEqual({ scenario, failures: [] });
}
