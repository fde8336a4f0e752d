import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type ScriptedLlmServer, startScriptedLlmServer } from '../agent/test-support/scripted-llm-server';
import { runBuiltCli } from '../test-support/built-cli';
import { ExitCode } from './exit-codes';

/**
 * Results that never silently vanish (docs/agent-cli.md, "Results over the limit"): the built CLI, a real
 * stdio MCP server whose tool answers 5 MB of JSON, and a scripted model that then reads the rest of it
 * with `Read`, under the default gate (no --yes, no terminal: any question would be refused).
 */
const SERVER = path.join(__dirname, '../test-support/big-result-server.mjs');
const FIVE_MB = 5 * 1024 * 1024;
const MAX_CHARS = 100_000;

let llm: ScriptedLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

type Entry = { type: string; [key: string]: unknown };

it('a 5 MB result: the model gets a preview and the path, Read of that path runs without a question, the transcript says so', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-overflow-'));
  let savedPath = '';
  llm = await startScriptedLlmServer((index) => {
    if (index === 0)
      return {
        toolCalls: [{ id: 'big', name: 'mcp__big__export_rows', arguments: {} }],
      };
    if (index === 1) {
      savedPath = /saved whole to (\S+):/.exec(toolMessage(1, 'big'))?.[1] ?? 'no path in the preview';
      // The first lines, and a page deep inside the file: every part of it is reachable by Read's paging.
      return {
        toolCalls: [
          {
            id: 'head',
            name: 'Read',
            arguments: { path: savedPath, limit: 3 },
          },
          {
            id: 'deep',
            name: 'Read',
            arguments: { path: savedPath, offset: 200_000, limit: 4 },
          },
        ],
      };
    }
    return { text: 'read it' };
  });
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `llm:
  baseUrl: ${llm.baseUrl}
  model: scripted-model
  maxToolResultChars: ${MAX_CHARS}
mcp:
  servers:
    - name: big
      command: ${JSON.stringify(process.execPath)}
      args: [${JSON.stringify(SERVER)}, "${FIVE_MB}"]
      annotationTrust: trust
      maxMessageBytes: 16777216
`,
  );
  const run = await runBuiltCli(['run', '--transcript', 'transcript.jsonl', 'export every row'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
    },
  });
  expect({ code: run.code, stderr: run.stderr }).toEqual({
    code: ExitCode.Ok,
    stderr: expect.any(String),
  });

  // The model: a note with the path, then the JSON's structure, all within the limit.
  const preview = toolMessage(1, 'big');
  expect(preview.length).toBeLessThanOrEqual(MAX_CHARS);
  expect(savedPath).toMatch(/^\.agent-cli\/tool-results\/[^/]+\/result-1\.json$/);
  expect(preview).toMatch(
    /^\[This result has (\d+) characters, over llm\.maxToolResultChars \(100000\), so it was saved whole to \S+: Read that file/,
  );
  const resultChars = Number(/has (\d+) characters/.exec(preview)?.[1]);
  expect(resultChars).toBeGreaterThan(FIVE_MB);
  expect(preview).toContain('object with 2 key(s)\n  "rows": array of ');
  expect(preview).toContain('    "id": string "row-000000"');
  expect(preview).toMatch(/\n {2}"total": number \d+/);

  // The file holds the whole result; Read ran under the default gate and reached its start and its depths.
  const saved = path.join(dir, savedPath);
  expect(statSync(saved).size).toBeGreaterThan(FIVE_MB);
  const whole = JSON.parse(readFileSync(saved, 'utf8')) as {
    rows: unknown[];
    total: number;
  };
  expect(whole.rows).toHaveLength(whole.total);
  expect(toolMessage(2, 'head')).toMatch(/^\{\n {2}"rows": \[\n {4}\{\n\[lines 1-3 of \d+; continue with offset 4\]$/);
  expect(toolMessage(2, 'deep')).toMatch(/^\s+("id"|"amount"|"note"|\{|\},?)/);

  const entries = readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Entry);
  expect(entries.filter((entry) => entry.type === 'tool_result_overflow')).toEqual([
    expect.objectContaining({
      id: 'big',
      name: 'mcp__big__export_rows',
      resultChars,
      previewChars: preview.length,
      file: savedPath,
    }),
  ]);
  expect(entries.filter((entry) => entry.type === 'approval' && (entry.id === 'head' || entry.id === 'deep'))).toEqual([
    expect.objectContaining({ name: 'Read', allowed: true, by: 'not-needed' }),
    expect.objectContaining({ name: 'Read', allowed: true, by: 'not-needed' }),
  ]);
}, 120_000);

/** The `tool` message for a call in the request of that number. */
function toolMessage(request: number, id: string): string {
  const message = llm?.requests[request]?.body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id);
  return String(message?.content ?? '');
}
