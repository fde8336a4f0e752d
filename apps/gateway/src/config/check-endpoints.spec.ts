import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { GatewayError } from '../errors/gateway-errors';
import { loadConfig } from './load-config';

const dir = mkdtempSync(path.join(tmpdir(), 'gateway-endpoints-'));
let files = 0;

/** The configuration of two bundles and `endpoints` (YAML flow sequences), loaded as the gateway loads it. */
function load(endpoints: string, more = ''): ReturnType<typeof loadConfig> {
  const file = path.join(dir, `${(files += 1)}.yaml`);
  writeFileSync(
    file,
    `mcp:
  bundles:
    - { name: sample, serviceDomain: "http://127.0.0.1:8081", manifestPath: /tool-manifest }
    - { name: billing, serviceDomain: "http://127.0.0.1:8082", manifestPath: /tool-manifest }
  endpoints: ${endpoints}
${more}`,
  );
  return loadConfig({ file, env: {} });
}

function refusal(endpoints: string, more = ''): string {
  try {
    load(endpoints, more);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return (error as GatewayError).message;
  }
  throw new Error('the configuration was accepted');
}

describe('mcp.endpoints (curated endpoints)', () => {
  it('accepts endpoints with selectors of each kind, overrides, limits and a search switch', () => {
    const config = load(`
    - name: support
      serve: [{ tools: customer_lookup }, { bundle: billing }, { tag: orders }, { tools: "order_*" }]
      overrides: { customer_lookup: { name: find_customer, description: Finds a customer, annotations: { readOnlyHint: true } } }
      rateLimits: { perCaller: { points: 5, durationSeconds: 60 } }
      toolSearch: false
    - { name: partners, path: /partners/mcp, serve: [{ bundle: sample }] }`);
    expect(config.mcp.endpoints?.map((endpoint) => endpoint.name)).toEqual(['support', 'partners']);
  });

  it.each([
    [
      'two endpoints of one name',
      '[{ name: a, serve: [{ bundle: sample }] }, { name: a, serve: [{ bundle: billing }] }]',
      'two endpoints are named a',
    ],
    [
      'the default path',
      '[{ name: a, path: /mcp, serve: [{ bundle: sample }] }]',
      "path /mcp is the default endpoint's (mcp.endpointPath)",
    ],
    [
      'one path twice',
      '[{ name: a, serve: [{ bundle: sample }] }, { name: b, path: /mcp/a, serve: [{ bundle: sample }] }]',
      "mcp.endpoints b: path /mcp/a is also endpoint a's",
    ],
    ['a trailing slash', '[{ name: a, path: /mcp/a/, serve: [{ bundle: sample }] }]', 'must not end with "/"'],
    ['the metadata path', '[{ name: a, path: /.well-known/a, serve: [{ bundle: sample }] }]', 'is under /.well-known/'],
    [
      'an unknown bundle',
      '[{ name: a, serve: [{ bundle: payroll }] }]',
      'serve names bundle payroll, which mcp.bundles does not have (it has: sample, billing)',
    ],
    [
      'two tools aliased to one name',
      '[{ name: a, serve: [{ bundle: sample }], overrides: { x: { name: y }, z: { name: y } } }]',
      'overrides give tools x and z the one name y',
    ],
    [
      'an alias that is a served name',
      '[{ name: a, serve: [{ tools: x }, { tools: y }], overrides: { x: { name: y } } }]',
      'overrides name tool x y, which is also a tool the endpoint serves',
    ],
    ['scopes without auth', '[{ name: a, serve: [{ bundle: sample }], scopes: [support] }]', "scopes need callers' tokens: configure auth"],
  ])('refuses %s, saying what to fix', (_case, endpoints, message) => {
    expect(refusal(endpoints)).toContain(message);
  });

  it('lets an alias take the name of a tool that is itself renamed', () => {
    expect(() => load('[{ name: a, serve: [{ tools: x }, { tools: y }], overrides: { x: { name: y }, y: { name: z } } }]')).not.toThrow();
  });

  it.each([
    ['a selector of two kinds', '[{ name: a, serve: [{ bundle: sample, tag: x }] }]'],
    ['no selector', '[{ name: a, serve: [] }]'],
    ['an upper-case name', '[{ name: Support, serve: [{ bundle: sample }] }]'],
    ['an unknown annotation', '[{ name: a, serve: [{ bundle: sample }], overrides: { x: { annotations: { safe: true } } } }]'],
  ])('refuses %s by the schema', (_case, endpoints) => {
    expect(refusal(endpoints)).toContain('invalid configuration');
  });
});
