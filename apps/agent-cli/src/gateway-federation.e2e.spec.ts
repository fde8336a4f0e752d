import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { FEDERATED_CALLS, type FederatingGateway, startFederatingGateway } from '../../../tools/test/federating-gateway';
import { REPO_ROOT } from '../../../tools/test/server-process';
import { type CliRun, runBuiltCli } from './test-support/built-cli';

/**
 * The built agent CLI through a gateway that federates server-everything (issue 28), in both eras: it
 * lists the federated tools and calls them, and gets what a direct call gets (the image and the resource
 * links intact).
 */
describe('agent-cli through a federating gateway (issue 28)', () => {
  let front: FederatingGateway;

  beforeAll(async () => {
    front = await startFederatingGateway();
  }, 120_000);
  afterAll(async () => {
    await front?.stop();
  });

  function agentConfig(era: 'auto' | 'legacy'): string {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'agent-federation-')), 'agent-cli.yaml');
    writeFileSync(file, `mcp:\n  servers:\n    - name: gw\n      url: ${front.url}\n      era: "${era}"\n`);
    return file;
  }
  const cli = (config: string, ...args: string[]): Promise<CliRun> =>
    runBuiltCli([...args, '--config', config, '--json'], { cwd: REPO_ROOT, env: { PATH: process.env.PATH } });

  it.each([
    ['auto', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ] as const)(
    'era %s (%s): lists the federated tools and calls them, the image and the links intact',
    async (era, version) => {
      const config = agentConfig(era);
      const servers = await cli(config, 'servers');
      expect(servers.code).toBe(0);
      expect(JSON.parse(servers.stdout)).toMatchObject({ servers: [{ state: 'connected', protocolVersion: version }] });
      const listed = await cli(config, 'tools');
      expect(listed.code).toBe(0);
      const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(FEDERATED_CALLS.map(([tool]) => `mcp__gw__ev_${tool}`)));
      for (const [tool, args] of FEDERATED_CALLS) {
        const called = await cli(config, 'call', `mcp__gw__ev_${tool}`, JSON.stringify(args), '--yes');
        expect({ code: called.code, stderr: called.stderr }).toMatchObject({ code: 0 });
        const { content, isError } = front.direct.get(tool) ?? {};
        expect(JSON.parse(called.stdout)).toMatchObject({ isError, content });
      }
    },
    120_000,
  );
});
