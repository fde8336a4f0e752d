import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { runCliInProcess } from '../test-support/in-process-cli';
import { ExitCode } from './exit-codes';

/**
 * Names and descriptions from a server are its own text: in tables they are escaped, so no escape
 * sequence (clear screen, colours, a window title) reaches the terminal raw (SPEC A20). The server is an
 * SDK McpServer over stdio whose every name carries one.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-hostile-'));
const SERVER = path.join(__dirname, '../mcp/test-support/hostile-names-server.mjs');

beforeAll(() => {
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `mcp:\n  servers:\n    - name: hostile\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER)}]\n`,
  );
});

const cli = (...args: string[]) => runCliInProcess(args, { cwd: dir });

// eslint-disable-next-line no-control-regex -- what must not be there
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe.each([
  ['servers', ['servers'], 'hostile\\u001b[2J 1.0\\u001b[31m'],
  ['tools', ['tools'], 'Echoes\\u001b[2J back'],
  ['resources', ['resources'], 'A resource\\u001b]0;title\\u0007'],
  ['prompts', ['prompts'], 'Says hi\\u001b[2J'],
])('agent-cli %s', (_, args, escaped) => {
  it("shows the server's text escaped in its table, one line per row", async () => {
    const { code, stdout } = await cli(...args);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toContain(escaped);
    expect(stdout).not.toMatch(RAW_CONTROL);
  });
});

it('tools keeps only the first line of a description in the table', async () => {
  const { stdout } = await cli('tools');
  expect(stdout).not.toContain('second line');
});
