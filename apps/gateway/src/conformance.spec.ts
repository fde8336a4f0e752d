import { expectPassing, runSuite } from './test-support/conformance-suite';
import { useGatewayWithSampleService } from './test-support/test-gateway';

/** Scenarios of the suite 0.1.16 that apply to a tools-only gateway (the rest need prompts, resources, sampling, ...). */
const SUITE_01_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'dns-rebinding-protection',
  'tools-call-simple-text',
  'tools-call-error',
];

/** 0.2.0-alpha.12, default mode: every scenario that applies to a tools-only gateway (issue #13 lists them). */
const SUITE_02_SCENARIOS = [
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
const SUITE_02_INPUT_REQUIRED_SCENARIOS = [
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
const SUITE_02_MODERN_SCENARIOS = SUITE_02_SCENARIOS.filter((s) => !['server-initialize', 'server-session-lifecycle', 'ping'].includes(s));

describe('official MCP conformance suite, server scenarios', () => {
  // A short catalogue TTL: the listen checks change the tool list and wait about a second for the notification.
  const { gateway } = useGatewayWithSampleService((config) => {
    config.mcp.catalogue.refreshTtlMillis = 200;
  });

  it(`0.1.16 passes ${SUITE_01_SCENARIOS.join(', ')}`, async () => {
    expectPassing(await runSuite(gateway().url, SUITE_01_SCENARIOS), SUITE_01_SCENARIOS);
  }, 180_000);

  it('0.2.0-alpha.12 passes every scenario that applies to a tools-only gateway', async () => {
    expectPassing(await runSuite(gateway().url, SUITE_02_SCENARIOS, ['--suite', '0.2']), SUITE_02_SCENARIOS);
  }, 300_000);

  for (const [mode, options] of [
    ['default mode', ['--suite', '0.2']],
    ['--spec-version 2026-07-28', ['--suite', '0.2', '--spec-version', '2026-07-28']],
  ] as const) {
    it(`0.2.0-alpha.12 (${mode}) passes the input-required-result scenarios through the gateway`, async () => {
      expectPassing(await runSuite(gateway().url, SUITE_02_INPUT_REQUIRED_SCENARIOS, [...options]), SUITE_02_INPUT_REQUIRED_SCENARIOS);
    }, 300_000);
  }

  it('0.2.0-alpha.12 with --spec-version 2026-07-28 passes every scenario that applies', async () => {
    expectPassing(
      await runSuite(gateway().url, SUITE_02_MODERN_SCENARIOS, ['--suite', '0.2', '--spec-version', '2026-07-28']),
      SUITE_02_MODERN_SCENARIOS,
    );
  }, 300_000);
});
