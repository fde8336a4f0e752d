import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Runs one client scenario of the official MCP conformance suite (through tools/conformance/conformance.mjs,
 * its Node 20 shim) against the built conformance client, dist/apps/agent-cli/conformance/conformance-client.js,
 * and reads back what the suite recorded: its checks and the client's own stdout and stderr.
 */
const ROOT = path.join(__dirname, '../../../..');
const SUITE = path.join(ROOT, 'tools/conformance/conformance.mjs');
const CLIENT = `node ${path.join(ROOT, 'dist/apps/agent-cli/conformance/conformance-client.js')}`;
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
}

export function runConformanceScenario(scenario: string, options: SuiteOptions = {}): Promise<ScenarioRun> {
  const out = mkdtempSync(path.join(tmpdir(), 'conformance-'));
  const specVersion = options.specVersion ? ['--spec-version', options.specVersion] : [];
  const env = options.package ? { ...process.env, CONFORMANCE_PACKAGE: options.package } : process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [SUITE, 'client', '--command', CLIENT, '--scenario', scenario, '--timeout', '30000', '-o', out, ...specVersion],
      { cwd: ROOT, env },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      // Results land in <out>/<scenario dirs>/<run>/; a scenario the suite skips leaves none.
      const runs = findRunDirectories(out);
      const read = (file: string) =>
        runs
          .map((dir) => path.join(dir, file))
          .filter((f) => existsSync(f))
          .map((f) => readFileSync(f, 'utf8'));
      const checks = read('checks.json').flatMap((text) => JSON.parse(text) as ConformanceCheck[]);
      resolve({ code, output, checks, clientStdout: read('stdout.txt').join(''), clientStderr: read('stderr.txt').join('') });
      rmSync(out, { recursive: true, force: true });
    });
  });
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
