import { CONFORMANCE_ALPHA, reachedToolCall, runConformanceScenarios, type ScenarioRun } from '../test-support/conformance-suite';

/**
 * The `auth/*` client scenarios of the official conformance suite 0.2.0-alpha.12, in its default mode
 * and with --spec-version 2026-07-28, run against the built conformance client: the agent's OAuth
 * (ServerOAuth over the SDK's auth()) with a headless user in place of the browser (conformance-auth.ts).
 *
 * The suite prints PASSED for some scenarios when the client gives up early, so each scenario must also
 * show its own SUCCESS check and, for those that must succeed, a tools/call the server answered; those
 * in which the client must refuse (a foreign resource, a wrong or missing `iss`, a scope that never
 * comes) must show the client stopping before any tool call. No run may print a token or a secret.
 *
 * Not run: the extension scenarios auth/client-credentials-jwt, auth/client-credentials-basic,
 * auth/enterprise-managed-authorization, auth/dpop, auth/dpop-nonce and auth/wif-jwt-bearer (machine
 * credentials, enterprise identity and DPoP key binding: none is part of SPEC A19; ADR 0016).
 */

/** Scenarios in which the client signs in and calls the tool, with the check that shows each did its part. */
const COMPLETES: ReadonlyArray<[string, string]> = [
  ['auth/metadata-default', 'prm-pathbased-requested'],
  ['auth/metadata-var1', 'authorization-server-metadata'],
  ['auth/metadata-var2', 'authorization-server-metadata'],
  ['auth/metadata-var3', 'authorization-server-metadata'],
  ['auth/basic-cimd', 'cimd-client-id-used'],
  ['auth/scope-from-www-authenticate', 'scope-from-www-authenticate'],
  ['auth/scope-from-scopes-supported', 'scope-from-scopes-supported'],
  ['auth/scope-omitted-when-undefined', 'scope-omitted-when-undefined'],
  ['auth/scope-step-up', 'scope-step-up-escalation'],
  ['auth/token-endpoint-auth-basic', 'token-endpoint-auth-method'],
  ['auth/token-endpoint-auth-post', 'token-endpoint-auth-method'],
  ['auth/token-endpoint-auth-none', 'token-endpoint-auth-method'],
  ['auth/pre-registration', 'pre-registration-auth'],
  ['auth/offline-access-scope', 'sep-2207-offline-access-requested'],
  ['auth/offline-access-not-supported', 'sep-2207-offline-access-not-requested'],
  ['auth/authorization-server-migration', 'sep-2352-reregister-on-as-change'],
  ['auth/iss-supported', 'sep-2468-client-compare-iss-supported'],
  ['auth/iss-not-advertised', 'sep-2468-client-proceed-no-iss'],
];

/** The 2025-03-26 back-compatibility scenarios: the suite runs them in its default mode only. */
const COMPLETES_2025_03_26: ReadonlyArray<[string, string]> = [
  ['auth/2025-03-26-oauth-metadata-backcompat', 'authorization-server-metadata'],
  ['auth/2025-03-26-oauth-endpoint-fallback', 'token-request'],
];

/** Scenarios in which the client must stop before calling anything: the check that shows it did, and the reason it gives. */
const REFUSES: ReadonlyArray<[string, string, string]> = [
  ['auth/resource-mismatch', 'resource-mismatch-rejected', 'Protected resource https://evil.example.com/mcp does not match expected'],
  [
    'auth/scope-retry-limit',
    'scope-retry-limit',
    'still refuses the request for want of scope after a sign-in with the scopes "mcp:admin"',
  ],
  ['auth/iss-supported-missing', 'sep-2468-client-reject-missing-iss', 'the sign-in response carries no issuer (iss)'],
  ['auth/iss-wrong-issuer', 'sep-2468-client-compare-iss-supported', 'the sign-in response names another issuer'],
  ['auth/iss-unexpected', 'sep-2468-client-compare-iss-unadvertised', 'the sign-in response names another issuer'],
  ['auth/iss-normalized', 'sep-2468-client-no-normalization', 'the sign-in response names another issuer'],
  [
    'auth/metadata-issuer-mismatch',
    'sep-2468-client-validate-metadata-issuer',
    "the authorization server's metadata names another issuer than its address",
  ],
];

/** What the suite's authorization servers hand out: none of it may reach the client's output. */
const CREDENTIALS = /test-token-|test-client-secret|pre-registered-secret|as[12]-client-secret/;

describe.each([
  ['default mode', undefined, [...COMPLETES, ...COMPLETES_2025_03_26]],
  ['--spec-version 2026-07-28', '2026-07-28', COMPLETES],
] as const)('conformance 0.2.0-alpha.12 auth scenarios, %s', (_mode, specVersion, completes) => {
  // Each scenario has its servers on ports from the OS and an output folder of its own; all of them run first, side by side.
  let runs: Map<string, ScenarioRun>;
  beforeAll(async () => {
    const scenarios = [...completes, ...REFUSES].map(([scenario]) => scenario);
    runs = await runConformanceScenarios(scenarios, { package: CONFORMANCE_ALPHA, specVersion });
  }, 600_000);
  const runOf = (scenario: string) => runs.get(scenario) as ScenarioRun;

  it.each(completes)('%s: signs in and calls the tool', (scenario, requiredCheck) => {
    const run = runOf(scenario);

    expect(run.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')).toEqual([]);
    expect(run.checks).toContainEqual(expect.objectContaining({ id: requiredCheck, status: 'SUCCESS' }));
    expect(run.checks).toContainEqual(expect.objectContaining({ id: 'valid-bearer-token', status: 'SUCCESS' }));
    expect(reachedToolCall(run.checks)).toBe(true);
    expect(run.clientStderr).toContain('auth scenario: listed the tools and called test-tool');
    expect(run.output).toContain('OVERALL: PASSED');
    expect(`${run.clientStdout}${run.clientStderr}`).not.toMatch(CREDENTIALS);
  });

  it.each(REFUSES)('%s: refuses and calls nothing', (scenario, requiredCheck, reason) => {
    const run = runOf(scenario);

    expect(run.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')).toEqual([]);
    expect(run.checks).toContainEqual(expect.objectContaining({ id: requiredCheck, status: 'SUCCESS' }));
    expect(reachedToolCall(run.checks)).toBe(false);
    expect(run.output).toMatch(/Client exited with code [1-9]/);
    expect(run.clientStderr).toContain(`scenario ${scenario} failed: could not connect to MCP server "conformance": `);
    expect(run.clientStderr).toContain(reason);
    expect(`${run.clientStdout}${run.clientStderr}`).not.toMatch(CREDENTIALS);
  });
});
