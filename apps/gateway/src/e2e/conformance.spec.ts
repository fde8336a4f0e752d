import {
  expectPassing,
  runSuite,
  SUITE_01_SCENARIOS,
  SUITE_02_INPUT_REQUIRED_SCENARIOS,
  SUITE_02_MODERN_SCENARIOS,
  SUITE_02_SCENARIOS,
  SUITE_02_TASKS_SCENARIOS,
} from '../test-support/conformance-suite';
import { useGatewayWithSampleService } from '../test-support/test-gateway';

describe('official MCP conformance suite, server scenarios', () => {
  // A short catalogue TTL: the listen checks change the tool list and wait about a second for the notification.
  const { gateway } = useGatewayWithSampleService((config) => {
    config.mcp.catalogue.refreshTtlMillis = 200;
    // The sample service's long tools as tasks (issue 47), polled often enough for the suite's 10 s waits.
    config.mcp.tasks = { ...config.mcp.tasks, enabled: true, poll: { defaultMillis: 500, minMillis: 100, maxMillis: 1_000 } };
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

  it('0.2.0-alpha.12 passes the Tasks extension scenarios (SEP-2663) against a REST tool service', async () => {
    expectPassing(await runSuite(gateway().url, SUITE_02_TASKS_SCENARIOS, ['--suite', '0.2']), SUITE_02_TASKS_SCENARIOS);
  }, 300_000);

  it('0.2.0-alpha.12 with --spec-version 2026-07-28 passes every scenario that applies', async () => {
    expectPassing(
      await runSuite(gateway().url, SUITE_02_MODERN_SCENARIOS, ['--suite', '0.2', '--spec-version', '2026-07-28']),
      SUITE_02_MODERN_SCENARIOS,
    );
  }, 300_000);
});
