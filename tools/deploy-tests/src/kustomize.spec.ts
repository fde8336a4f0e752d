import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { parse as parseYaml } from 'yaml';

import { kustomize, onlyOf } from './kustomize-render';

/**
 * The Kustomize base and its example overlay, rendered by `kubectl kustomize` and checked on the rendered
 * YAML: the same deployment contract as the Helm chart (SPEC G20), and the ConfigMap's configuration
 * started by the built gateway, whose management port then answers the probes the Deployment names.
 */
const ROOT = path.resolve(__dirname, '../../..');
const healthServer = readFileSync(path.join(ROOT, 'apps/gateway/src/management/health-server.ts'), 'utf8');

interface Container {
  ports: Array<{ name: string; containerPort: number }>;
  env: Array<{ name: string; value?: string; valueFrom?: Record<string, Record<string, unknown>> }>;
  lifecycle: { preStop: { exec: { command: string[] } } };
  securityContext: Record<string, unknown>;
  resources: { requests?: Record<string, string>; limits?: Record<string, string> };
  [probe: string]: unknown;
}
type Probe = { httpGet: { path: string; port: string | number } };
interface GatewayYaml {
  server: { port: number; managementPort: number; host: string };
  mcp: { endpointPath: string; shutdownDrainMillis: number; bundles: Array<Record<string, unknown>>; redis?: Record<string, unknown> };
}

const selects = (selector: unknown, labels: Record<string, string> | undefined) =>
  Object.entries(selector as Record<string, string>).every(([key, value]) => labels?.[key] === value);

describe.each(['deploy/kustomize/base', 'deploy/kustomize/overlays/example'])('kubectl kustomize %s', (dir) => {
  const manifests = kustomize(path.join(ROOT, dir));
  const deployment = onlyOf(manifests, 'Deployment');
  const configMap = onlyOf(manifests, 'ConfigMap');
  const podTemplate = deployment.spec?.template as { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
  const podSpec = podTemplate.spec as {
    terminationGracePeriodSeconds: number;
    securityContext: Record<string, unknown>;
    containers: Container[];
    volumes: Array<Record<string, { name?: string }>>;
  };
  const container = podSpec.containers[0];
  const configText = configMap.data?.['gateway.yaml'] ?? '';
  const config = parseYaml(configText) as GatewayYaml;
  const portNamed = (name: string) => container.ports.find((port) => port.name === name)?.containerPort;
  const resolvePort = (port: string | number) => (typeof port === 'number' ? port : portNamed(port));
  const envNamed = (name: string) => container.env.find((entry) => entry.name === name);

  it('renders the Deployment, Service, ConfigMap, PodDisruptionBudget and NetworkPolicy, one each', () => {
    expect(manifests.map((manifest) => manifest.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
    ]);
    const configVolume = podSpec.volumes.find((volume) => volume.configMap)?.configMap;
    expect(configVolume?.name).toBe(configMap.metadata.name); // the generated (hashed) name, so a change rolls the pods
  });

  it('configures exactly one bundle, without a fallback file', () => {
    expect(config.mcp.bundles).toHaveLength(1);
    expect(config.mcp.bundles[0].fallbackManifestFile).toBeUndefined();
  });

  it('probes liveness and readiness on the configured management port', () => {
    for (const [probe, pathSuffix] of [
      ['startupProbe', 'liveness'],
      ['livenessProbe', 'liveness'],
      ['readinessProbe', 'readiness'],
    ]) {
      const { httpGet } = container[probe] as Probe;
      expect([probe, httpGet.path, resolvePort(httpGet.port)]).toEqual([
        probe,
        `/actuator/health/${pathSuffix}`,
        config.server.managementPort,
      ]);
      expect(healthServer).toContain(`'/actuator/health/${pathSuffix}':`);
    }
    expect(portNamed('mcp')).toBe(config.server.port);
    expect(config.server.host).toBe('0.0.0.0');
  });

  it('gives the pod a grace period above the preStop sleep plus the configured drain', () => {
    const [command, seconds] = container.lifecycle.preStop.exec.command;
    expect(command).toBe('sleep');
    const sleep = Number(seconds);
    expect(sleep).toBeGreaterThanOrEqual(5);
    // the gateway exits within the drain plus a second (docs/deployment.md, "Shutdown")
    expect(podSpec.terminationGracePeriodSeconds).toBeGreaterThan(sleep + config.mcp.shutdownDrainMillis / 1000 + 1);
  });

  it('keeps secrets out of the ConfigMap: REDIS_URL comes from a Secret', () => {
    expect(config.mcp.redis?.url).toBeUndefined();
    expect(configText).not.toMatch(/:\/\/[^/\s]*@|password|token/i);
    const redisUrl = envNamed('REDIS_URL');
    expect(redisUrl?.value).toBeUndefined();
    expect(redisUrl?.valueFrom?.secretKeyRef).toMatchObject({ name: expect.any(String), key: expect.any(String) });
  });

  it('takes the requestState sealing key from a Secret, the same on every replica', () => {
    const key = envNamed('MCP_REQUEST_STATE_KEY');
    expect(key?.value).toBeUndefined();
    expect(key?.valueFrom?.secretKeyRef).toMatchObject({ name: 'toolmesh-gateway-request-state', key: 'key', optional: true });
    expect(configText).not.toMatch(/requestStateKey/);
  });

  it('gives the gateway POD_IP and POD_NAME from the Downward API', () => {
    expect(envNamed('POD_IP')?.valueFrom?.fieldRef).toEqual({ fieldPath: 'status.podIP' });
    expect(envNamed('POD_NAME')?.valueFrom?.fieldRef).toEqual({ fieldPath: 'metadata.name' });
  });

  it('runs the container non-root, read-only, without privileges, with resources', () => {
    expect(podSpec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext).toEqual({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits?.memory).toEqual(expect.any(String));
  });

  it('selects its own pods in the Deployment, Service, PodDisruptionBudget and NetworkPolicy, on named ports', () => {
    const labels = podTemplate.metadata.labels;
    const service = onlyOf(manifests, 'Service');
    const policy = onlyOf(manifests, 'NetworkPolicy');
    const pdb = onlyOf(manifests, 'PodDisruptionBudget');
    const selectors: Array<[string, unknown]> = [
      ['Deployment', (deployment.spec?.selector as { matchLabels: unknown }).matchLabels],
      ['Service', service.spec?.selector],
      ['NetworkPolicy', (policy.spec?.podSelector as { matchLabels: unknown }).matchLabels],
      ['PodDisruptionBudget', (pdb.spec?.selector as { matchLabels: unknown }).matchLabels],
    ];
    for (const [kind, selector] of selectors) expect([kind, selects(selector, labels)]).toEqual([kind, true]);
    const servicePorts = service.spec?.ports as Array<{ targetPort: string }>;
    expect(servicePorts.map((port) => resolvePort(port.targetPort))).toEqual([config.server.port, config.server.managementPort]);
    const policyPorts = (policy.spec?.ingress as Array<{ ports: Array<{ port: string }> }>).flatMap((rule) =>
      rule.ports.map((port) => resolvePort(port.port)),
    );
    expect(policyPorts).toEqual([config.server.port, config.server.managementPort]);
    expect(pdb.spec?.minAvailable).toBe(1);
  });

  it('holds a configuration the built gateway starts with, live but not ready while its tool service is away', async () => {
    const workDir = mkdtempSync(path.join(tmpdir(), 'kustomize-config-'));
    const configFile = path.join(workDir, 'gateway.yaml');
    writeFileSync(configFile, configText);
    // only the ports (to free ones), the addresses (loopback) and the log format (the ready line) are overridden
    const gateway = await spawnGateway(configFile, {
      PORT: '0',
      MANAGEMENT_PORT: '0',
      HOST: '127.0.0.1',
      MANAGEMENT_HOST: '127.0.0.1',
      LOG_FORMAT: 'kv',
    });
    try {
      const managementUrl = gateway.match[2];
      const liveness = await fetch(`${managementUrl}${(container.livenessProbe as Probe).httpGet.path}`);
      const readiness = await fetch(`${managementUrl}${(container.readinessProbe as Probe).httpGet.path}`);
      expect([liveness.status, readiness.status]).toEqual([200, 503]); // the bundle's service does not resolve here
      expect(gateway.match[1]).toMatch(new RegExp(`${config.mcp.endpointPath}$`));
    } finally {
      expect(await gateway.stop()).toBe(0);
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
