import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { AGENT_CLI_MAIN } from '../test-support/built-cli';
import { cliTestEnv } from '../test-support/cli-env';

/**
 * Rewake end to end (issue #6): `agent-cli run` (the built CLI) with a real MCP server that notifies
 * later (tools/test/peers/notifying-peer.mjs) and a scripted model. The model asks the server to send a
 * resource update later and sleeps in WaitForEvent; the notification wakes it, and the next model request
 * carries the event. A second WaitForEvent with nothing coming returns its clean timeout result.
 */
const ROOT = path.join(__dirname, '../../../..');
const PEER = path.join(ROOT, 'tools/test/peers/notifying-peer.mjs');

let llm: ScriptedLlmServer | undefined;
afterAll(() => llm?.close());

it('the agent sleeps in WaitForEvent, a real server notifies later, the next request carries the event; a timeout returns cleanly', async () => {
  llm = await startScriptedLlmServer([
    {
      toolCalls: [
        {
          id: 'schedule',
          name: 'mcp__notify__schedule_notification',
          arguments: { delayMs: 500, kind: 'resource', uri: 'file:///reports/daily.csv' },
        },
        {
          id: 'wait',
          name: 'WaitForEvent',
          arguments: { filter: { type: 'resource.updated', uri_prefix: 'file:///reports/' }, timeout_ms: 30_000 },
        },
      ],
    },
    { toolCalls: [{ id: 'again', name: 'WaitForEvent', arguments: { timeout_ms: 200 } }] },
    { text: 'The daily report was updated.' },
  ]);
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-rewake-'));
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:\n  baseUrl: ${llm.baseUrl}\n  model: scripted-model\nmcp:\n  servers:\n    - name: notify\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(PEER)}, --name=loop-rewake]\n      annotationTrust: trust\n`,
  );

  const child = spawn(
    process.execPath,
    [AGENT_CLI_MAIN, 'run', 'tell me when the daily report changes', '--transcript', 'transcript.jsonl'],
    { cwd: dir, env: cliTestEnv({ PATH: process.env.PATH }), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));

  expect(code).toBe(0);
  expect(stdout).toBe('The daily report was updated.\n');
  const tool = (request: number, id: string) =>
    llm?.requests[request].body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id)?.content as string;
  expect(tool(1, 'schedule')).toContain('scheduled in 500 ms');
  const event = JSON.parse(tool(1, 'wait')) as Record<string, unknown>;
  expect(event).toMatchObject({
    server: 'notify',
    type: 'resource.updated',
    method: 'notifications/resources/updated',
    summary: { uri: 'file:///reports/daily.csv' },
  });
  expect(tool(2, 'again')).toBe('no event arrived within 200 ms');
  const results = readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((e) => e.type === 'tool_result');
  expect(results.map((e) => [e.name, e.isError])).toEqual([
    ['mcp__notify__schedule_notification', false],
    ['WaitForEvent', false],
    ['WaitForEvent', false],
  ]);
});
