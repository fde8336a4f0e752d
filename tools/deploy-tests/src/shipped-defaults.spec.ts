import { readdirSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import path from 'node:path';

import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { parse as parseYaml } from 'yaml';

import { at, defineBody, readChart } from './chart-source';
import { environmentOf, type Stage, stagesOf } from './dockerfile-source';
import { kustomize, onlyOf } from './kustomize-render';

/**
 * The artefacts as shipped (issue 43, item 10): the image, the examples, the Kustomize renders and the
 * chart keep the management port (no token asked there) on loopback or behind their own NetworkPolicy,
 * and keep every size cap and batch limit at or under the default docs/configuration.md states.
 */
const ROOT = path.resolve(__dirname, '../../..');
const configurationDoc = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

/** What bounds the work one request or one refresh can cost; raising any of them enlarges an attack. */
const BOUNDS = [
  'mcp.maxBodyBytes',
  'mcp.maxBatchMembers',
  'mcp.maxBatchResponseBytes',
  'mcp.maxRelayedRequestsPerCall',
  'mcp.catalogue.maxTools',
  'mcp.catalogue.maxSerializedBytes',
  'mcp.catalogue.maxManifestBytes',
  'mcp.catalogue.toolsListPageSize',
  'mcp.catalogue.maxYamlDepth',
  'mcp.catalogue.maxYamlNodes',
  'mcp.catalogue.maxSchemaNodes',
];

/** A key's default as docs/configuration.md's reference table states it: `| \`key\` | \`1048576\` | ...`. */
function documentedDefault(key: string): number {
  const match = new RegExp(`^\\| \`${key.replace(/\./g, '\\.')}\` \\| \`([0-9]+)\``, 'm').exec(configurationDoc);
  if (!match) throw new Error(`docs/configuration.md states no numeric default for ${key}`);
  return Number(match[1]);
}

/** Each bound a configuration sets above its documented default, as `key=value`; absent is the default. */
function boundsRaised(config: unknown): string[] {
  return BOUNDS.flatMap((key) => {
    const value = at(config, ...key.split('.'));
    if (value === undefined) return [];
    return typeof value === 'number' && value <= documentedDefault(key) ? [] : [`${key}=${String(value)}`];
  });
}

/** A non-loopback IPv4 address of this machine: what another host on its network would connect to. */
function externalAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address;
  if (address === undefined) throw new Error('this machine has no non-loopback IPv4 address to test the bind addresses from');
  return address;
}

/** Whether anything accepts a TCP connection at the URL (any HTTP answer counts). */
const reachable = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
    () => true,
    () => false,
  );

describe('the image as shipped', () => {
  const runtime = stagesOf(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).at(-1) as Stage;
  const environment = environmentOf(runtime);

  it('serves the MCP port on every interface and the management port on loopback only', async () => {
    expect(LOOPBACK).toContain(environment.MANAGEMENT_HOST);
    // The image's own environment, the ports moved to free ones; a configuration file as one is mounted.
    const gateway = await spawnGateway(gatewayConfigFile('http://127.0.0.1:9'), { ...environment, PORT: '0', MANAGEMENT_PORT: '0' });
    try {
      const [mcpPort, managementPort] = [new URL(gateway.match[1]).port, new URL(gateway.match[2]).port];
      const address = externalAddress();
      expect(await reachable(`http://127.0.0.1:${managementPort}/actuator/health/liveness`)).toBe(true);
      expect(await reachable(`http://${address}:${mcpPort}/mcp`)).toBe(true);
      expect(await reachable(`http://${address}:${managementPort}/actuator/health/liveness`)).toBe(false);
    } finally {
      await gateway.stop();
    }
  });
});

describe('the gateway examples as shipped (config/examples)', () => {
  const examples = readdirSync(path.join(ROOT, 'config/examples')).filter((name) => name.endsWith('.yaml') && !name.startsWith('agent-'));

  it.each(examples)('%s: the management port on loopback, the caps and batch limits at their defaults', (name) => {
    const config = parseYaml(readFileSync(path.join(ROOT, 'config/examples', name), 'utf8')) as Record<string, unknown>;
    expect(config.llm).toBeUndefined(); // an agent CLI example is named agent-*
    const managementHost = at(config, 'server', 'managementHost');
    expect(managementHost === undefined || LOOPBACK.includes(String(managementHost))).toBe(true);
    expect(boundsRaised(config)).toEqual([]);
  });
});

describe.each(['deploy/kustomize/base', 'deploy/kustomize/overlays/example'])('kubectl kustomize %s as shipped', (dir) => {
  const manifests = kustomize(path.join(ROOT, dir));
  const config = parseYaml(onlyOf(manifests, 'ConfigMap').data?.['gateway.yaml'] ?? '') as Record<string, unknown>;

  it("listens on the pod's address for the kubelet's probes, and only behind its NetworkPolicy, which names who may reach it", () => {
    // httpGet probes come from the kubelet to the pod's address: loopback would fail them
    expect(LOOPBACK).not.toContain(String(at(config, 'server', 'managementHost') ?? '127.0.0.1'));
    const rules = at(onlyOf(manifests, 'NetworkPolicy'), 'spec', 'ingress') as Array<{ ports: Array<{ port: unknown }>; from?: unknown[] }>;
    const management = rules.filter((rule) => rule.ports.some((port) => port.port === 'management'));
    expect(management).toHaveLength(1);
    expect(management[0].from?.length).toBeGreaterThan(0); // a rule without `from` admits every pod
  });

  it('keeps the caps and batch limits at their defaults, and limits the rate of tool calls', () => {
    expect(boundsRaised(config)).toEqual([]);
    expect(at(config, 'rateLimits', 'perCaller', 'points')).toEqual(expect.any(Number));
  });
});

describe('the Helm chart as shipped', () => {
  const chart = readChart(path.join(ROOT, 'deploy/helm/toolmesh-gateway'));
  const validate = defineBody(chart.helpers, 'toolmesh-gateway.validate');
  const config = defineBody(chart.helpers, 'toolmesh-gateway.config');
  const policy = chart.templates['networkpolicy.yaml'];

  it('opens the management port only with its NetworkPolicy, which the chart cannot be rendered without', () => {
    expect(config).toContain('"managementHost" "0.0.0.0"');
    expect(validate).toMatch(
      /\{\{-? if or \(not \.Values\.networkPolicy\.enabled\) \(empty \.Values\.networkPolicy\.managementFrom\) -?\}\}\s*\{\{-? fail /,
    );
    expect(policy.raw).not.toMatch(/^\s*\{\{-? if /m); // rendered whatever the values say
    const management = (at(policy.doc, 'spec', 'ingress') as Array<{ ports: Array<{ port: unknown }>; from: unknown }>).find((rule) =>
      rule.ports.some((port) => port.port === 'management'),
    );
    expect(policy.actionOf(management?.from)).toBe('toYaml .Values.networkPolicy.managementFrom | nindent 8');
    expect(at(chart.values, 'networkPolicy', 'managementFrom')).toEqual([expect.anything()]);
  });

  it('keeps the caps and batch limits at their defaults, batches bounded', () => {
    expect(boundsRaised(chart.values.gatewayConfig)).toEqual([]);
    expect(at(chart.values, 'gatewayConfig', 'mcp')).toMatchObject({
      maxBatchMembers: documentedDefault('mcp.maxBatchMembers'),
      maxBatchResponseBytes: documentedDefault('mcp.maxBatchResponseBytes'),
    });
  });

  it('turns auth and rate limits on: it refuses to render until the issuers and audience are named or auth is turned off', () => {
    expect(chart.values.auth).toMatchObject({ enabled: true, audience: '', authorizationServers: [] });
    expect(validate).toMatch(
      /\{\{-? if and \.Values\.auth\.enabled \(or \(not \.Values\.auth\.audience\) \(empty \.Values\.auth\.authorizationServers\)\) -?\}\}\s*\{\{-? fail /,
    );
    expect(config).toMatch(/\{\{-? if \.Values\.auth\.enabled -?\}\}\s*\{\{-? \$_ := set \$config "auth" \(pick \.Values\.auth /);
    expect(chart.values.rateLimits).toMatchObject({
      enabled: true,
      perCaller: { points: expect.any(Number), durationSeconds: expect.any(Number) },
    });
    expect(config).toMatch(
      /\{\{-? if \.Values\.rateLimits\.enabled -?\}\}\s*\{\{-? \$_ := set \$config "rateLimits" \(pick \.Values\.rateLimits /,
    );
    // one place for each: the configuration's own keys are refused
    expect(validate).toMatch(
      /if or \(hasKey \.Values\.gatewayConfig "auth"\) \(hasKey \.Values\.gatewayConfig "rateLimits"\) -?\}\}\s*\{\{-? fail /,
    );
  });
});
