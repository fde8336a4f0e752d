import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT, type ServerProcess, spawnNodeScript } from '@toolmesh/test-peers/server-process';

import { type CliRun, runBuiltCli } from '../test-support/built-cli';

/**
 * Issue 43, item 4, as the agent CLI meets it: an HTTP MCP server (tools/test/peers/hostile-mcp-server.mjs)
 * answers with results nested 2,000,000 levels deep (4 MB), as a JSON body and as an SSE event. The CLI's
 * transport is the one the gateway federates through, so the call fails at once naming the limit instead of
 * parsing the reply.
 */
let server: ServerProcess & { match: RegExpExecArray };
let dir: string;

beforeAll(async () => {
  server = await spawnNodeScript(path.join(REPO_ROOT, 'tools/test/peers/hostile-mcp-server.mjs'), {}, /listening on (\S+)/);
  dir = mkdtempSync(path.join(tmpdir(), 'agent-cli-hostile-replies-'));
  writeFileSync(
    path.join(dir, 'agent-cli.yaml'),
    `mcp:\n  servers:\n    - name: hostile\n      url: ${server.match[1]}\n      era: legacy\n`,
  );
});
afterAll(async () => {
  await server?.stop();
});

function cli(...args: string[]): Promise<CliRun> {
  return runBuiltCli(args, { cwd: dir, env: { PATH: process.env.PATH ?? '' } });
}

describe('agent-cli against an MCP server with deep replies', () => {
  it.each(['deep_json', 'deep_sse'])('fails a call of %s naming the depth limit, unparsed', async (tool) => {
    const { code, stdout, stderr } = await cli('call', `mcp__hostile__${tool}`, '{}', '--yes');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      "the server's reply is nested deeper than this client's limit of 256 levels; it was dropped unparsed [http.message_too_deep]",
    );
  });
});
