import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

/**
 * The official MCP conformance suites' server scenarios that apply to the gateway, and their runner
 * (tools/conformance/run-conformance.js): for conformance.spec.ts and, through a federating gateway,
 * conformance-federated.spec.ts.
 */
type Results = Record<string, { passed: boolean; failures: string[]; warnings: string[] }>;

/** Scenarios of the suite 0.1.16 that apply to a tools-only gateway (the rest need prompts, resources, sampling, ...). */
export const SUITE_01_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'dns-rebinding-protection',
  'tools-call-simple-text',
  'tools-call-error',
];

/** 0.2.0-alpha.12, default mode: every scenario that applies to a tools-only gateway (issue #13 lists them). */
export const SUITE_02_SCENARIOS = [
  'server-initialize',
  'server-session-lifecycle',
  'server-stateless',
  'ping',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-error',
  'json-schema-2020-12',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
  'caching',
  'http-header-validation',
  'http-custom-header-server-validation',
];

/**
 * 0.2.0-alpha.12's MRTR scenarios (SEP-2322), relayed from the sample service's `test_input_required_result_*`
 * tools: all but `input-required-result-non-tool-request`, which needs a prompt (SPEC N7).
 */
export const SUITE_02_INPUT_REQUIRED_SCENARIOS = [
  'input-required-result-basic-elicitation',
  'input-required-result-basic-sampling',
  'input-required-result-basic-list-roots',
  'input-required-result-request-state',
  'input-required-result-multiple-input-requests',
  'input-required-result-multi-round',
  'input-required-result-missing-input-response',
  'input-required-result-result-type',
  'input-required-result-unsupported-methods',
  'input-required-result-tampered-state',
  'input-required-result-capability-check',
  'input-required-result-ignore-extra-params',
  'input-required-result-validate-input',
];

/** With `--spec-version 2026-07-28`: the same, without the 2025-only ones. */
export const SUITE_02_MODERN_SCENARIOS = SUITE_02_SCENARIOS.filter(
  (s) => !['server-initialize', 'server-session-lifecycle', 'ping'].includes(s),
);

export async function runSuite(url: string, scenarios: readonly string[], options: string[] = []): Promise<Results> {
  const runner = path.join(REPO_ROOT, 'tools/conformance/run-conformance.js');
  const { stdout } = await promisify(execFile)(process.execPath, [runner, 'server', url, ...scenarios, '--json', ...options]).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout }),
  );
  return JSON.parse(stdout) as Results;
}

/**
 * Every scenario passes, and warns of nothing but what `warned` names (a scenario's WARNING checks, by id:
 * a SHOULD the gateway knowingly does not meet, or a check the suite could not make; said in docs/gateway.md).
 */
export function expectPassing(results: Results, scenarios: readonly string[], warned: Readonly<Record<string, string[]>> = {}): void {
  expect(Object.keys(results)).toEqual(scenarios);
  for (const [scenario, { failures, warnings }] of Object.entries(results)) {
    const warningIds = warnings.map((warning) => warning.slice(0, warning.indexOf(':')));
    expect({ scenario, failures, warningIds }).toEqual({ scenario, failures: [], warningIds: warned[scenario] ?? [] });
  }
}
