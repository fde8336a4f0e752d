import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type CliRun, runBuiltCli } from '../test-support/built-cli';
import { ExitCode } from './exit-codes';

/**
 * Hooks through the built CLI (dist/apps/agent-cli/main.js): a configuration that lists a hook file
 * whose hooks ask the policy MCP server (tools/test/peers/policy-peer.mjs over stdio).
 */
const ROOT = path.join(__dirname, '../../../..');
const POLICY_PEER = path.join(ROOT, 'tools/test/peers/policy-peer.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'hooks-cli-'));

function cli(...args: string[]): Promise<CliRun> {
  return runBuiltCli(args, { cwd: dir, env: { PATH: process.env.PATH } });
}

function configWithHooks(name: string, hooks: string): string {
  writeFileSync(path.join(dir, `${name}-hooks.yaml`), hooks);
  writeFileSync(
    path.join(dir, `${name}.yaml`),
    `mcp:\n  servers:\n    - name: policy\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(POLICY_PEER)}]\nhooks: [${name}-hooks.yaml]\n`,
  );
  return `${name}.yaml`;
}

describe('agent-cli call with hooks', () => {
  it('exits 5 and prints the reason when a hook denies the call, which then did not run', async () => {
    const config = configWithHooks(
      'deny',
      'name: guard\nhooks:\n  - event: PreToolUse\n    matcher: Write\n    action:\n      type: mcp_tool\n      server: policy\n      tool: decide\n      args: { decision: deny, reason: "{{tool.name}} is frozen during the release" }\n',
    );
    const target = path.join(dir, 'frozen.txt');
    const { code, stdout, stderr } = await cli(
      'call',
      'Write',
      JSON.stringify({ path: target, content: 'x' }),
      '--yes',
      '--config',
      config,
    );
    expect(code).toBe(ExitCode.Denied);
    expect(stderr).toContain('a hook denied Write: Write is frozen during the release');
    expect(stdout).toBe('');
    expect(existsSync(target)).toBe(false);
  });

  it("warns on stderr and goes on when a hook's server is not configured (fail-soft)", async () => {
    const config = configWithHooks(
      'unknown',
      'name: guard\nhooks:\n  - event: PreToolUse\n    action: { type: mcp_tool, server: elsewhere, tool: decide, args: { decision: deny } }\n',
    );
    const { code, stdout, stderr } = await cli('call', 'Glob', JSON.stringify({ pattern: '*.yaml' }), '--config', config);
    expect(code).toBe(ExitCode.Ok);
    expect(stdout).toContain('unknown.yaml');
    expect(stderr).toContain(
      'warning: hook guard#0 (PreToolUse mcp_tool elsewhere/decide) on Glob: MCP server "elsewhere" is not configured or not connected; going on as if it had not decided',
    );
  });

  it('exits 3 naming the file and the setting when a hook file is invalid', async () => {
    const config = configWithHooks(
      'invalid',
      'name: guard\nhooks:\n  - event: PreToolUse\n    action: { type: http, url: "https://audit.example.com/{{args.path}}" }\n',
    );
    const { code, stderr } = await cli('call', 'Glob', '{"pattern":"*"}', '--config', config);
    expect(code).toBe(ExitCode.Config);
    expect(stderr).toContain(`${path.join(dir, 'invalid-hooks.yaml')}: hooks[0].action.url is never templated`);
    expect(stderr).toContain('[hooks.file_invalid]');
  });
});
