import {
  CONFORMANCE_ALPHA as ALPHA,
  runConformanceScenarios,
  type ScenarioRun,
  type SuiteOptions,
} from '../test-support/conformance-suite';

/**
 * The official MCP conformance suite (node_modules/@modelcontextprotocol/conformance, through
 * tools/conformance/conformance.mjs for its Node 20 shim) drives our HTTP client transport and MCP
 * client, built as dist/apps/agent-cli/conformance/conformance-client.js, against its mock servers:
 * the 0.1.16 suite, and the 0.2.0-alpha.12 one (installed as conformance-2026) in its default mode and
 * with --spec-version 2026-07-28. The suite prints PASSED for some scenarios when the client exits
 * early, so each scenario must also show its own SUCCESS check: the client really connected and did it.
 * Each block runs its scenarios first (runConformanceScenarios), then reads what each recorded.
 */

/** Runs `scenarios` before the block's tests; the returned function gives a scenario's run. */
function useScenarioRuns(scenarios: readonly string[], suite?: SuiteOptions): (scenario: string) => ScenarioRun {
  let runs: Map<string, ScenarioRun>;
  beforeAll(async () => {
    runs = await runConformanceScenarios([...new Set(scenarios)], suite);
  }, 600_000);
  return (scenario) => runs.get(scenario) as ScenarioRun;
}
function expectPassed({ code, output, checks }: ScenarioRun, requiredChecks: readonly string[]): void {
  expect(checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')).toEqual([]);
  for (const id of requiredChecks) expect(checks).toContainEqual(expect.objectContaining({ id, status: 'SUCCESS' }));
  expect(output).toContain('OVERALL: PASSED');
  expect(code).toBe(0);
}

const SUITE_01_SCENARIOS = [
  ['initialize', 'mcp-client-initialization'],
  ['tools_call', 'tool-add-numbers'],
  ['sse-retry', 'client-sse-graceful-reconnect'],
  ['elicitation-sep1034-client-defaults', 'client-elicitation-sep1034-string-default'],
] as const;

describe('MCP conformance suite 0.1.16, client scenarios', () => {
  const runOf = useScenarioRuns(SUITE_01_SCENARIOS.map(([scenario]) => scenario));

  it.each(SUITE_01_SCENARIOS)('passes %s', (scenario, requiredCheck) => expectPassed(runOf(scenario), [requiredCheck]));

  it('fills in every kind of schema default in an accepted form (SEP-1034)', () => {
    const { checks } = runOf('elicitation-sep1034-client-defaults');
    const defaults = ['string', 'integer', 'number', 'enum', 'boolean'].map((kind) => `client-elicitation-sep1034-${kind}-default`);
    expect(checks.filter((c) => defaults.includes(c.id)).map((c) => [c.id, c.status])).toEqual(defaults.map((id) => [id, 'SUCCESS']));
  });
});

/** Each scenario and the checks that show the client connected and did what the scenario is about. */
const ALPHA_SCENARIOS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['tools_call', ['tool-add-numbers']],
  // The first request is refused with -32022; the retry carries a version the server named.
  [
    'request-metadata',
    [
      'sep-2575-client-retry-supported-version',
      'sep-2575-client-populates-meta',
      'sep-2575-http-version-header-matches-meta',
      'sep-2575-client-sends-client-info',
    ],
  ],
  [
    'json-schema-2020-12-preservation',
    [
      'json-schema-2020-12-client-echo-completed',
      'json-schema-2020-12-client-$schema-preserved',
      'json-schema-2020-12-client-$defs-preserved',
    ],
  ],
  [
    'sep-2322-client-request-state',
    [
      'sep-2322-client-request-state-echoed',
      'sep-2322-client-jsonrpc-id-different',
      'sep-2322-client-no-state-omitted',
      'sep-2322-client-parallel-isolation',
      'sep-2322-default-result-type-complete',
    ],
  ],
  ['http-standard-headers', ['sep-2243-client-includes-standard-headers']],
  [
    'http-custom-headers',
    [
      'sep-2243-client-supports-custom-headers',
      'sep-2243-client-base64-unsafe',
      'sep-2243-client-encode-values',
      'sep-2243-client-omit-null',
    ],
  ],
  ['http-invalid-tool-headers', ['sep-2243-client-reject-invalid-tool', 'sep-2243-x-mcp-header-primitive-only']],
  ['json-schema-ref-no-deref', ['sep-2106-no-network-ref-deref']],
];

/** Scenarios of the 2025 revisions that 2026-07-28 removed: run in the default mode only. */
const ALPHA_2025_ONLY: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['initialize', ['mcp-client-initialization']],
  ['sse-retry', ['client-sse-graceful-reconnect', 'client-sse-last-event-id']],
  ['elicitation-sep1034-client-defaults', ['client-elicitation-sep1034-string-default', 'client-elicitation-sep1034-boolean-default']],
];

/**
 * SEP-2640 (Skills over MCP), an extension: listing reads no skill file (no-prefetch); in the verify ones the
 * client loads the skill, reads the tampered SKILL.md, refuses it and reads none of its other files.
 */
const SKILLS_SCENARIOS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['sep-2640-client-no-prefetch', ['sep-2640-host-no-prefetch']],
  ['sep-2640-client-verify-digest', ['sep-2640-host-verify-digest']],
  ['sep-2640-client-verify-size', ['sep-2640-host-size-mismatch-failure']],
  ['sep-2640-client-verify-frontmatter', ['sep-2640-host-frontmatter-comparison']],
];

const ALL_ALPHA_SCENARIOS = [...ALPHA_2025_ONLY, ...ALPHA_SCENARIOS].map(([scenario]) => scenario);
const SKILLS_SCENARIO_NAMES = SKILLS_SCENARIOS.map(([scenario]) => scenario);

describe('MCP conformance suite 0.2.0-alpha.12, client scenarios (era auto), default mode', () => {
  const runOf = useScenarioRuns([...ALL_ALPHA_SCENARIOS, ...SKILLS_SCENARIO_NAMES], { package: ALPHA });

  it.each([...ALPHA_2025_ONLY, ...ALPHA_SCENARIOS, ...SKILLS_SCENARIOS])('passes %s in the default mode', (scenario, checks) =>
    expectPassed(runOf(scenario), checks),
  );

  it.each(SKILLS_SCENARIOS.slice(1))('says why it refused the tampered skill in %s', (scenario) =>
    expect(runOf(scenario).clientStderr).toContain('skill "pdf-processing" of MCP server "conformance" refused: '),
  );
});

// An extension scenario is SKIPPED when a spec version is given, unless forced.
describe('MCP conformance suite 0.2.0-alpha.12, skills client scenarios, --spec-version 2026-07-28 --force', () => {
  const runOf = useScenarioRuns(SKILLS_SCENARIO_NAMES, { package: ALPHA, specVersion: '2026-07-28', force: true });

  it.each(SKILLS_SCENARIOS)('passes %s at 2026-07-28', (scenario, checks) => expectPassed(runOf(scenario), checks));
});

describe('MCP conformance suite 0.2.0-alpha.12, client scenarios (era auto), --spec-version 2026-07-28', () => {
  const runOf = useScenarioRuns(ALL_ALPHA_SCENARIOS, { package: ALPHA, specVersion: '2026-07-28' });

  it.each(ALPHA_SCENARIOS)('passes %s with --spec-version 2026-07-28', (scenario, checks) => expectPassed(runOf(scenario), checks));

  it('keeps the SEP-2106 keywords at 2026-07-28 ($anchor, allOf/anyOf, if/then/else)', () => {
    const { checks } = runOf('json-schema-2020-12-preservation');
    const ids = [
      'sep-2106-client-composition-keywords-preserved',
      'sep-2106-client-conditional-keywords-preserved',
      'sep-2106-client-anchor-keyword-preserved',
    ];
    expect(checks.filter((c) => ids.includes(c.id)).map((c) => [c.id, c.status])).toEqual(ids.map((id) => [id, 'SUCCESS']));
  });

  it.each(ALPHA_2025_ONLY.map(([scenario]) => scenario))(
    'is told %s does not apply at 2026-07-28 (removed in that revision)',
    (scenario) => {
      const { code, output } = runOf(scenario);
      expect(output).toContain(`SKIPPED: scenario '${scenario}' is not applicable at spec version 2026-07-28`);
      expect(code).toBe(0);
    },
  );
});
