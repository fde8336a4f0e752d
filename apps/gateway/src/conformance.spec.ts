import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../../tools/test/server-process';
import { useGatewayWithSampleService } from './test-support/test-gateway';

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'tools-call-simple-text', 'tools-call-error'];

describe('official MCP conformance suite, server scenarios', () => {
  const { gateway } = useGatewayWithSampleService();

  it(`passes ${SCENARIOS.join(', ')}`, async () => {
    const runner = path.join(REPO_ROOT, 'tools/conformance/run-conformance.js');
    const { stdout } = await promisify(execFile)(process.execPath, [runner, 'server', gateway().url, ...SCENARIOS, '--json']).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    const results = JSON.parse(stdout) as Record<string, { passed: boolean; failures: string[] }>;
    expect(Object.keys(results)).toEqual(SCENARIOS);
    for (const [scenario, result] of Object.entries(results)) expect({ scenario, failures: result.failures }).toEqual({ scenario, failures: [] });
  }, 120_000);
});
