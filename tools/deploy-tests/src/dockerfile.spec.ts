import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { eventually } from '@toolmesh/test-peers/process-table';
import { startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { all, type Stage, stagesOf } from './dockerfile-source';

/**
 * The Dockerfile's invariants (no container engine runs here): stages, user, health check, what the final
 * image holds. The HEALTHCHECK's own command is run against the built gateway, and the bundle's run-time
 * imports are checked against the production dependencies the final stage installs.
 */
const ROOT = path.resolve(__dirname, '../../..');
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

const stages = stagesOf(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1) as Stage;
const stageNamed = (name: string) => stages.find((stage) => stage.name === name);
const healthCheckCommand = (): string[] => JSON.parse(/^.*?\bCMD\s+(\[.*\])$/.exec(all(runtime, 'HEALTHCHECK')[0])?.[1] ?? '[]');

describe('the Dockerfile', () => {
  it('builds in one stage and runs from a slim one', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(runtime.from).toMatch(/^node:\$\{NODE_VERSION\}-\S*slim$/);
    const build = stages[0];
    expect(all(build, 'RUN')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^npm ci\b/), expect.stringMatching(/nx run gateway:build\b/)]),
    );
  });

  it('ships production dependencies only: none installed in the final stage, node_modules from an npm ci --omit=dev stage', () => {
    expect(all(runtime, 'RUN')).toEqual([]);
    const copies = all(runtime, 'COPY');
    const nodeModules = copies.find((args) => /\snode_modules\s|node_modules$/.test(args));
    const source = /--from=(\S+)/.exec(nodeModules ?? '')?.[1] ?? '';
    expect(all(stageNamed(source), 'RUN')).toEqual([expect.stringMatching(/^npm ci --omit=dev\b/)]);
    // from the build stage, which holds the dev dependencies, only the built bundle
    expect(copies.filter((args) => args.includes(`--from=${stages[0].name}`))).toEqual([
      `--from=${stages[0].name} /src/dist/apps/gateway ./dist/apps/gateway`,
    ]);
  });

  it('needs nothing at run time beyond Node and the production dependencies', () => {
    // the bundle is built with thirdParty: false; each package it requires must be a production dependency
    const bundle = readFileSync(path.join(ROOT, 'dist/apps/gateway/main.js'), 'utf8');
    const required = new Set([...bundle.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]));
    const packages = [...required]
      .filter((name) => !name.startsWith('node:') && !builtinModules.includes(name))
      .map((name) => (name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0]));
    expect(packages.length).toBeGreaterThan(0);
    expect(packages.filter((name) => !(name in packageJson.dependencies))).toEqual([]);
  });

  it('runs as a numeric non-root user, the gateway as PID 1 in exec form', () => {
    const users = all(runtime, 'USER');
    expect(users).toHaveLength(1);
    const [uid] = users[0].split(':');
    expect(Number(uid)).toBeGreaterThan(0); // numeric, so Kubernetes' runAsNonRoot can verify it
    const lastUser = runtime.instructions.findIndex((instruction) => instruction.keyword === 'USER');
    expect(runtime.instructions.slice(lastUser).some((instruction) => instruction.keyword === 'COPY')).toBe(false);
    expect(JSON.parse(all(runtime, 'ENTRYPOINT')[0])).toEqual(['node', 'dist/apps/gateway/main.js']);
  });

  it('checks health on the management port: its HEALTHCHECK command passes for a ready gateway and fails for a stopped one', async () => {
    const command = healthCheckCommand();
    expect(command[0]).toBe('node');
    expect(command.join(' ')).toContain('/actuator/health/readiness');
    expect(command.join(' ')).toContain('process.env.MANAGEMENT_PORT || 9090');
    expect(all(runtime, 'ENV').join(' ')).toContain('MANAGEMENT_PORT=9090');

    const toolService = await startSampleToolService();
    const gateway = await spawnGateway(gatewayConfigFile(toolService.url));
    const managementPort = new URL(gateway.match[2]).port;
    const healthCheck = () =>
      spawnSync(process.execPath, command.slice(1), {
        env: { PATH: process.env.PATH ?? '', MANAGEMENT_PORT: managementPort },
        timeout: 10_000,
      }).status;
    try {
      expect(await eventually(() => healthCheck() === 0, 20_000, 200)).toBe(true);
    } finally {
      await gateway.stop();
      await toolService.stop();
    }
    expect(healthCheck()).toBe(1);
  });
});

describe('the .dockerignore', () => {
  it('keeps installed, built and local state out of the build context', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '**/node_modules', 'dist', '.nx', 'tmp', '.git']));
  });
});
