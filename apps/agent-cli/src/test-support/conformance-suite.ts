import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

/**
 * Runs client scenarios of the official MCP conformance suite against the built conformance client,
 * dist/apps/agent-cli/conformance/conformance-client.js, and reads back what the suite recorded for each: its
 * checks and the client's own stdout and stderr. The scenarios run in tools/conformance/suite-runs.mjs (the
 * suite loaded once per process, with its Node 20 shim), split over LANES processes side by side: a scenario
 * spends most of its time waiting on the client it starts.
 */
const SUITE_RUNS = path.join(REPO_ROOT, 'tools/conformance/suite-runs.mjs');
const CLIENT = `node ${path.join(REPO_ROOT, 'dist/apps/agent-cli/conformance/conformance-client.js')}`;
const LANES = 2;
/** How long one scenario may take: the suite's own client timeout (30 s) with room for a loaded machine. */
const SCENARIO_TIMEOUT_MS = 120_000;
/** 0.2.0-alpha.12, installed beside 0.1.16 under this alias. */
export const CONFORMANCE_ALPHA = '@modelcontextprotocol/conformance-2026';

export interface ConformanceCheck {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly description?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface ScenarioRun {
  /** The suite's exit code and output (its summary: "OVERALL: PASSED", "CLIENT EXITED WITH ERROR"). */
  readonly code: number | null;
  readonly output: string;
  readonly checks: readonly ConformanceCheck[];
  /** What the client wrote, as the suite saved it. */
  readonly clientStdout: string;
  readonly clientStderr: string;
}

export interface SuiteOptions {
  readonly package?: string;
  readonly specVersion?: string;
  /** Runs extension scenarios (SEP-2640's skills) that the suite skips when a spec version is given. */
  readonly force?: boolean;
}

/** Runs each scenario once, and returns each one's run by its name. */
export async function runConformanceScenarios(scenarios: readonly string[], options: SuiteOptions = {}): Promise<Map<string, ScenarioRun>> {
  const work = mkdtempSync(path.join(tmpdir(), 'conformance-'));
  try {
    const lanes = Array.from({ length: LANES }, (_, lane) => scenarios.filter((_, i) => i % LANES === lane)).filter((l) => l.length > 0);
    const runs = await Promise.all(lanes.map((lane, i) => runLane(lane, options, path.join(work, `lane-${i}`))));
    return new Map(runs.flat());
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function runLane(scenarios: readonly string[], options: SuiteOptions, work: string): Promise<Array<[string, ScenarioRun]>> {
  const specVersion = options.specVersion ? ['--spec-version', options.specVersion, ...(options.force ? ['--force'] : [])] : [];
  const outputs = scenarios.map((scenario) => path.join(work, scenario.replace(/\W/g, '-')));
  const runsFile = path.join(work, 'runs.json');
  const resultsFile = path.join(work, 'results.json');
  mkdirSync(work, { recursive: true });
  writeFileSync(
    runsFile,
    JSON.stringify(
      scenarios.map((scenario, i) => [
        'client',
        '--command',
        CLIENT,
        '--scenario',
        scenario,
        '--timeout',
        '30000',
        '-o',
        outputs[i],
        ...specVersion,
      ]),
    ),
  );
  const env = options.package ? { ...process.env, CONFORMANCE_PACKAGE: options.package } : process.env;
  const host = await promisify(execFile)(process.execPath, [SUITE_RUNS, resultsFile, runsFile], {
    cwd: REPO_ROOT,
    env,
    timeout: SCENARIO_TIMEOUT_MS * scenarios.length,
  }).catch((error: { stderr?: string; message: string }) => ({ stderr: error.stderr || error.message }));
  const ran: Array<{ code: number | null; output: string }> = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [];
  return scenarios.map((scenario, i) => [scenario, readRun(outputs[i], ran[i] ?? { code: null, output: host.stderr })]);
}

/** Results land in <out>/<scenario dirs>/<run>/; a scenario the suite skips leaves none. */
function readRun(out: string, { code, output }: { code: number | null; output: string }): ScenarioRun {
  const runs = existsSync(out) ? findRunDirectories(out) : [];
  const read = (file: string) =>
    runs
      .map((dir) => path.join(dir, file))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f, 'utf8'));
  const checks = read('checks.json').flatMap((text) => JSON.parse(text) as ConformanceCheck[]);
  return { code, output, checks, clientStdout: read('stdout.txt').join(''), clientStderr: read('stderr.txt').join('') };
}

function findRunDirectories(directory: string): string[] {
  if (existsSync(path.join(directory, 'checks.json'))) return [directory];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => findRunDirectories(path.join(directory, entry.name)));
}

/** Whether the scenario's MCP server answered a `tools/call` with 200: the client got as far as calling a tool. */
export function reachedToolCall(checks: readonly ConformanceCheck[]): boolean {
  return checks.some((c) => c.id === 'outgoing-response' && c.details?.mcpMethod === 'tools/call' && c.details?.statusCode === 200);
}
