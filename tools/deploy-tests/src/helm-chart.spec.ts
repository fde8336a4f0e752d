import { readFileSync } from 'node:fs';
import path from 'node:path';

import { at, defineBody, readChart, valueAt } from './chart-source';

/**
 * The Helm chart's deployment contract (SPEC G20, seed "HelmDeploymentContractTest"), checked without
 * helm: values.yaml and every template are parsed with the YAML parser (actions opaque, see
 * chart-source.ts) and each invariant is read from where the chart states it. Nothing is rendered, so
 * each check names the expression the template must use and evaluates only `.Values` references.
 */
const ROOT = path.resolve(__dirname, '../../..');
const chart = readChart(path.join(ROOT, 'deploy/helm/toolmesh-gateway'));
const deployment = chart.templates['deployment.yaml'];
const podSpec = at(deployment.doc, 'spec', 'template', 'spec') as Record<string, unknown>;
const container = at(podSpec, 'containers', 0) as Record<string, unknown>;
const healthServer = readFileSync(path.join(ROOT, 'apps/gateway/src/management/health-server.ts'), 'utf8');

const include = (name: string) => `include "toolmesh-gateway.${name}" .`;
const envNamed = (name: string) => (container.env as Array<Record<string, unknown>>).find((entry) => entry.name === name);

describe('the Helm chart deploy/helm/toolmesh-gateway', () => {
  it('parses, and its default values list exactly one bundle', () => {
    expect(chart.meta).toMatchObject({ apiVersion: 'v2', name: 'toolmesh-gateway' });
    expect(chart.values.bundles).toHaveLength(1);
  });

  it('fails unless the values list exactly one bundle, in every template', () => {
    const validate = defineBody(chart.helpers, 'toolmesh-gateway.validate');
    expect(validate).toMatch(/^\{\{-? if ne \(len \.Values\.bundles\) 1 -?\}\}\s*\{\{-? fail /);
    // the labels helper runs the rules before it reads bundles[0]; every template carries the labels
    expect(defineBody(chart.helpers, 'toolmesh-gateway.labels')).toMatch(new RegExp(`^\\{\\{- ${include('validate')} -\\}\\}`));
    for (const [file, template] of Object.entries(chart.templates)) {
      expect([file, template.actionOf(at(template.doc, 'metadata', 'labels'))]).toEqual([file, `${include('labels')} | nindent 4`]);
    }
    // the configuration takes that one bundle, never the list
    expect(defineBody(chart.helpers, 'toolmesh-gateway.config')).toContain('"bundles" (list (index .Values.bundles 0))');
  });

  it('bounds JSON-RPC batches: its configuration states the batch limits at the gateway defaults (issue 43)', () => {
    expect(at(chart.values, 'gatewayConfig', 'mcp')).toMatchObject({ maxBatchMembers: 32, maxBatchResponseBytes: 1_048_576 });
  });

  it('probes liveness and readiness on the management port, the port the gateway is configured with', () => {
    const management = '.Values.ports.management';
    for (const [probe, pathSuffix] of [
      ['startupProbe', 'liveness'],
      ['livenessProbe', 'liveness'],
      ['readinessProbe', 'readiness'],
    ]) {
      const httpGet = at(container, probe, 'httpGet');
      expect([probe, at(httpGet, 'path'), deployment.actionOf(at(httpGet, 'port'))]).toEqual([
        probe,
        `/actuator/health/${pathSuffix}`,
        management,
      ]);
      expect(healthServer).toContain(`'/actuator/health/${pathSuffix}':`);
    }
    const ports = container.ports as Array<Record<string, unknown>>;
    expect(ports.map((port) => [port.name, deployment.actionOf(port.containerPort)])).toEqual([
      ['mcp', '.Values.ports.mcp'],
      ['management', management],
    ]);
    const config = defineBody(chart.helpers, 'toolmesh-gateway.config');
    expect(config).toContain(`"managementPort" (int ${management})`);
    expect(config).toContain('"port" (int .Values.ports.mcp)');
    expect(config).toContain('"host" "0.0.0.0"');
    expect(valueAt(chart.values, management)).not.toBe(valueAt(chart.values, '.Values.ports.mcp'));
  });

  it('gives the pod a grace period above the preStop sleep plus the drain, which the gateway is configured with', () => {
    expect(deployment.actionOf(podSpec.terminationGracePeriodSeconds)).toBe(include('terminationGracePeriodSeconds'));
    expect(defineBody(chart.helpers, 'toolmesh-gateway.terminationGracePeriodSeconds')).toBe(
      '{{- add .Values.lifecycle.preStopSleepSeconds (div .Values.mcp.shutdownDrainMillis 1000) .Values.lifecycle.terminationMarginSeconds -}}',
    );
    expect(defineBody(chart.helpers, 'toolmesh-gateway.config')).toContain('"shutdownDrainMillis" (int .Values.mcp.shutdownDrainMillis)');
    expect(defineBody(chart.helpers, 'toolmesh-gateway.validate')).toMatch(
      /if lt \(int \.Values\.lifecycle\.terminationMarginSeconds\) 2 -?\}\}\s*\{\{-? fail /,
    );

    const preStop = at(container, 'lifecycle', 'preStop', 'exec', 'command') as string[];
    expect([preStop[0], deployment.actionOf(preStop[1])]).toEqual(['sleep', '.Values.lifecycle.preStopSleepSeconds']);

    // with the default values: the gateway exits within the drain plus a second (docs/deployment.md, "Shutdown"), after the sleep
    const sleep = valueAt(chart.values, '.Values.lifecycle.preStopSleepSeconds') as number;
    const drainMillis = valueAt(chart.values, '.Values.mcp.shutdownDrainMillis') as number;
    const grace = sleep + Math.floor(drainMillis / 1000) + (valueAt(chart.values, '.Values.lifecycle.terminationMarginSeconds') as number);
    expect(sleep).toBeGreaterThanOrEqual(5);
    expect(grace).toBeGreaterThan(sleep + drainMillis / 1000 + 1);
  });

  it('keeps secrets out of the ConfigMap: REDIS_URL comes from a Secret, a Redis URL in the values is refused', () => {
    const configMap = chart.templates['configmap.yaml'];
    expect(configMap.actionOf(at(configMap.doc, 'data', 'gateway.yaml'))).toBe(`${include('config')} | nindent 4`);
    const configSources = configMap.raw + defineBody(chart.helpers, 'toolmesh-gateway.config');
    expect(configSources).not.toMatch(/\.Values\.redis|secret|password|token|REDIS_URL/i);
    expect(defineBody(chart.helpers, 'toolmesh-gateway.validate')).toMatch(
      /if dig "mcp" "redis" "url" "" \.Values\.gatewayConfig -?\}\}\s*\{\{-? fail /,
    );
    expect(JSON.stringify(chart.values.gatewayConfig)).not.toMatch(/"(url|password|secret|token)"/i);

    const redisUrl = envNamed('REDIS_URL') as Record<string, unknown>;
    expect(redisUrl.value).toBeUndefined();
    const secretKeyRef = at(redisUrl, 'valueFrom', 'secretKeyRef');
    expect([deployment.actionOf(at(secretKeyRef, 'name')), deployment.actionOf(at(secretKeyRef, 'key'))]).toEqual([
      '.Values.redis.existingSecret',
      '.Values.redis.secretKey',
    ]);
    expect(deployment.raw).toMatch(/\{\{- if \.Values\.redis\.existingSecret \}\}\s*- name: REDIS_URL/);
  });

  it('takes the requestState sealing key from a Secret, so that every replica opens what another sealed', () => {
    const key = envNamed('MCP_REQUEST_STATE_KEY') as Record<string, unknown>;
    expect(key.value).toBeUndefined();
    const secretKeyRef = at(key, 'valueFrom', 'secretKeyRef');
    expect([deployment.actionOf(at(secretKeyRef, 'name')), deployment.actionOf(at(secretKeyRef, 'key'))]).toEqual([
      '.Values.requestStateKey.existingSecret',
      '.Values.requestStateKey.secretKey',
    ]);
    expect(deployment.raw).toMatch(/\{\{- if \.Values\.requestStateKey\.existingSecret \}\}\s*- name: MCP_REQUEST_STATE_KEY/);
    expect(JSON.stringify(chart.values.gatewayConfig)).not.toMatch(/requestStateKey/);
  });

  it('gives the gateway POD_IP and POD_NAME from the Downward API, as docs/configuration.md says it reads them', () => {
    expect(at(envNamed('POD_IP'), 'valueFrom', 'fieldRef', 'fieldPath')).toBe('status.podIP');
    expect(at(envNamed('POD_NAME'), 'valueFrom', 'fieldRef', 'fieldPath')).toBe('metadata.name');
    const configurationDoc = readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
    for (const entry of container.env as Array<{ name: string }>)
      expect([entry.name, configurationDoc.includes(`\`${entry.name}\``)]).toEqual([entry.name, true]);
  });

  it('runs the container non-root, read-only, without privileges, whatever the values say', () => {
    expect(at(podSpec, 'securityContext', 'runAsNonRoot')).toBe(true);
    expect(container.securityContext).toEqual({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(deployment.actionOf(container.resources)).toBe('toYaml .Values.resources | nindent 12');
    expect(chart.values.resources).toMatchObject({
      requests: { cpu: expect.anything(), memory: expect.anything() },
      limits: { memory: expect.anything() },
    });
  });

  it('exposes the public path through an optional Route, unchanged, the same value the gateway serves', () => {
    const route = chart.templates['route.yaml'];
    expect(route.raw).toMatch(/^\{\{- if \.Values\.route\.enabled \}\}/);
    expect(route.actionOf(at(route.doc, 'spec', 'path'))).toBe('.Values.mcp.endpointPath');
    expect(defineBody(chart.helpers, 'toolmesh-gateway.config')).toContain('"endpointPath" .Values.mcp.endpointPath');
    expect(at(route.doc, 'spec', 'to', 'kind')).toBe('Service');
    expect(at(route.doc, 'spec', 'port', 'targetPort')).toBe('mcp');
    // the router would cut the path before the gateway sees it: the chart refuses the annotation
    expect(route.raw).toMatch(
      /\{\{- if hasKey \.Values\.route\.annotations "haproxy\.router\.openshift\.io\/rewrite-target" \}\}\s*\{\{- fail /,
    );
    expect(JSON.stringify(chart.values.route)).not.toContain('rewrite-target');
  });

  it('selects its own pods alike in the Service, NetworkPolicy, PodDisruptionBudget and Deployment', () => {
    const selectorLabels = `${include('selectorLabels')} | nindent`;
    const selectors: Array<[string, Array<string | number>]> = [
      ['deployment.yaml', ['spec', 'selector', 'matchLabels']],
      ['service.yaml', ['spec', 'selector']],
      ['networkpolicy.yaml', ['spec', 'podSelector', 'matchLabels']],
      ['poddisruptionbudget.yaml', ['spec', 'selector', 'matchLabels']],
    ];
    for (const [file, keys] of selectors) {
      const template = chart.templates[file];
      expect([file, template.actionOf(at(template.doc, ...keys))?.startsWith(selectorLabels)]).toEqual([file, true]);
    }
    const policy = chart.templates['networkpolicy.yaml'].doc;
    expect(at(policy, 'spec', 'ingress', 0, 'ports', 0, 'port')).toBe('mcp');
    expect(at(policy, 'spec', 'ingress', 1, 'ports', 0, 'port')).toBe('management');
    expect(chart.values.podDisruptionBudget).toMatchObject({ enabled: true, minAvailable: 1 });
  });

  it('scales with an optional HorizontalPodAutoscaler, and leaves the replica count to it when on', () => {
    const hpa = chart.templates['horizontalpodautoscaler.yaml'];
    expect(hpa.raw).toMatch(/^\{\{- if \.Values\.autoscaling\.enabled \}\}/);
    expect(at(hpa.doc, 'spec', 'scaleTargetRef', 'kind')).toBe('Deployment');
    expect(deployment.raw).toMatch(
      /\{\{- if not \.Values\.autoscaling\.enabled \}\}\s*replicas: \{\{ \.Values\.replicaCount \}\}\s*\{\{- end \}\}/,
    );
    expect(chart.values.autoscaling).toMatchObject({ enabled: false });
  });
});
