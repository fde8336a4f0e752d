import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

/**
 * The official MCP conformance suites' server scenarios that apply to the gateway, and their runner
 * (tools/conformance/run-conformance.js): for conformance.spec.ts and, through a federating gateway,
 * conformance-federated.spec.ts.
 */
type Results = Record<string, { passed: boolean; failures: string[]; warnings: string[]; successes: string[] }>;

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

/**
 * 0.2.0-alpha.12's Tasks extension scenarios (SEP-2663, issue 47), against the sample service's long-running
 * REST tools (202 Accepted + Location). Not `tasks-mrtr-input`: a REST job cannot ask for input mid-task
 * (`input_required`); nor `tasks-status-notifications`, which the suite skips whole (its harness awaits a rewrite).
 */
export const SUITE_02_TASKS_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/** With `--spec-version 2026-07-28`: the same, without the 2025-only ones. */
export const SUITE_02_MODERN_SCENARIOS = SUITE_02_SCENARIOS.filter(
  (s) => !['server-initialize', 'server-session-lifecycle', 'ping'].includes(s),
);

/**
 * 0.2.0-alpha.12's Skills extension scenarios (SEP-2640, issue 49). Extension scenarios: with a
 * `--spec-version` they need `--force`, or the suite SKIPS them writing no checks.
 */
export const SUITE_02_SKILLS_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

/**
 * The checks each Skills scenario must pass, not merely not fail: a scenario whose checks are all SKIPPED
 * (the extension not declared, no skill listed, no `directoryRead`) passes by the suite's own rule.
 */
const SKILLS_REQUIRED_CHECKS: Readonly<Record<string, readonly string[]>> = {
  'sep-2640-skills-enumeration': [
    'sep-2640-capability-requires-resources',
    'sep-2640-skills-list-implemented',
    'sep-2640-resources-complete',
    'sep-2640-resources-digest-format',
    'sep-2640-skills-get-entry-shape',
    'sep-2640-skills-get-unknown-uri-invalid-params',
    'sep-2640-skillmd-required',
    'sep-2640-entry-frontmatter-identical',
  ],
  'sep-2640-skills-manifest': ['sep-2640-skillmd-mimetype', 'sep-2640-final-segment-equals-name', 'sep-2640-skillmd-metadata-description'],
  'sep-2640-skills-directory': [
    'sep-2640-directory-read-method-registered',
    'sep-2640-directory-read-subdir-mimetype',
    'sep-2640-directory-read-invalid-params',
  ],
};

/** The suite's Skills options at each era: 2026-07-28 by default, 2025-11-25 forced (an extension scenario). */
export const SKILLS_ERAS = [
  ['2026-07-28', ['--suite', '0.2']],
  ['2025-11-25', ['--suite', '0.2', '--spec-version', '2025-11-25', '--force']],
] as const;

/** The Skills scenarios pass, warning of nothing but what `warned` names (as `expectPassing`), each with its required checks SUCCESS. */
export function expectSkillsPassing(results: Results, warned: Readonly<Record<string, string[]>> = {}): void {
  expectPassing(results, SUITE_02_SKILLS_SCENARIOS, warned);
  for (const [scenario, required] of Object.entries(SKILLS_REQUIRED_CHECKS))
    expect({ scenario, missing: required.filter((check) => !results[scenario].successes.includes(check)) }).toEqual({
      scenario,
      missing: [],
    });
}

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
