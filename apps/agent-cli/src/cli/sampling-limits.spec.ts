import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { runBuiltCli } from '../test-support/built-cli';
import { ExitCode } from './exit-codes';

/**
 * A server that sends 1,000 sampling requests at once under --yes (the built CLI, a stdio server of the
 * SDK's, a scripted model that takes 200 ms a reply): the model is asked at most `maxConcurrent` times at
 * once and `perMinute` times in all; the rest are refused with the spec's error and a reason.
 */
const SERVER = path.join(__dirname, '../test-support/sampling-flood-server.mjs');

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

async function flood(serverRequests: string): Promise<{ answered: number; refused: number; firstRefusal: string; stderr: string }> {
  llm = await startScriptedLlmServer(() => ({ text: 'spent', delayMs: 200 }));
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-sampling-'));
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\nmcp:\n  servers:\n    - name: flood\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER)}]\n      era: legacy\n${serverRequests}`,
  );
  const run = await runBuiltCli(['call', '--yes', '--json', 'mcp__flood__flood', '{"count":1000}'], {
    cwd: dir,
    env: { PATH: process.env.PATH },
  });
  expect(run.code).toBe(ExitCode.Ok);
  const result = JSON.parse(run.stdout) as { content: Array<{ text: string }> };
  return { ...(JSON.parse(result.content[0].text) as { answered: number; refused: number; firstRefusal: string }), stderr: run.stderr };
}

it('by default, at most 2 model calls at once and 30 a minute; the rest refused, with one warning', async () => {
  const outcome = await flood('');
  expect(llm?.peakInFlight).toBeLessThanOrEqual(2);
  expect(llm?.requests.length).toBe(outcome.answered);
  expect(outcome.answered).toBeGreaterThan(0);
  expect(outcome.answered).toBeLessThanOrEqual(30);
  expect(outcome.refused).toBe(1000 - outcome.answered);
  expect(outcome.firstRefusal).toMatch(
    /too many sampling requests at once: at most 2 are handled at a time \(serverRequests.maxConcurrent\)/,
  );
  expect(outcome.stderr.match(/too many sampling requests/g)).toHaveLength(1);
}, 120_000);

it('serverRequests sets the limits per server', async () => {
  const outcome = await flood('      serverRequests: { maxConcurrent: 5, perMinute: 8 }\n');
  expect(llm?.peakInFlight).toBeLessThanOrEqual(5);
  expect(outcome.answered).toBeLessThanOrEqual(8);
  expect(outcome.refused).toBe(1000 - outcome.answered);
}, 120_000);
