import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The official MCP conformance suite (node_modules/@modelcontextprotocol/conformance, through
 * tools/conformance/conformance.mjs for its Node 20 shim) drives our HTTP client transport and MCP
 * client, built as dist/apps/agent-cli/conformance/conformance-client.js, against its mock servers.
 */
const ROOT = path.join(__dirname, '../../../..');
const SUITE = path.join(ROOT, 'tools/conformance/conformance.mjs');
const CLIENT = `node ${path.join(ROOT, 'dist/apps/agent-cli/conformance/conformance-client.js')}`;

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO';
  errorMessage?: string;
}

function runScenario(scenario: string): Promise<{ code: number | null; output: string; checks: Check[] }> {
  const out = mkdtempSync(path.join(tmpdir(), `conformance-${scenario}-`));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SUITE, 'client', '--command', CLIENT, '--scenario', scenario, '--timeout', '30000', '-o', out], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      const checks = readdirSync(out).flatMap((dir) => JSON.parse(readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as Check[]);
      resolve({ code, output, checks });
    });
  });
}

describe('MCP conformance suite, client scenarios', () => {
  it.each([
    ['initialize', 'mcp-client-initialization'],
    ['tools_call', 'tool-add-numbers'],
    ['sse-retry', 'client-sse-graceful-reconnect'],
    ['elicitation-sep1034-client-defaults', 'client-elicitation-sep1034-string-default'],
  ])('passes %s', async (scenario, requiredCheck) => {
    const { code, output, checks } = await runScenario(scenario);

    expect(checks.filter((c) => c.status === 'FAILURE')).toEqual([]);
    expect(checks).toContainEqual(expect.objectContaining({ id: requiredCheck, status: 'SUCCESS' }));
    expect(output).toContain('OVERALL: PASSED');
    expect(code).toBe(0);
  });

  it('fills in every kind of schema default in an accepted form (SEP-1034)', async () => {
    const { checks } = await runScenario('elicitation-sep1034-client-defaults');
    const defaults = ['string', 'integer', 'number', 'enum', 'boolean'].map((kind) => `client-elicitation-sep1034-${kind}-default`);
    expect(checks.filter((c) => defaults.includes(c.id)).map((c) => [c.id, c.status])).toEqual(defaults.map((id) => [id, 'SUCCESS']));
  });
});
