import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { loadConfig } from './load-config';

const EXAMPLES = path.join(REPO_ROOT, 'config/examples');
/** The gateway's examples: `gateway*.yaml`, `openapi*.yaml`, and those named for another feature of the gateway. */
const GATEWAY_FEATURE_EXAMPLES = [
  'oauth.yaml',
  'oauth-token-exchange.yaml',
  'mcp-upstreams.yaml',
  'skills.yaml',
  'governed.yaml',
  'user-consent.yaml',
];
const gatewayExamples = readdirSync(EXAMPLES).filter(
  (name) => (/^(gateway|openapi)/.test(name) && /\.ya?ml$/.test(name)) || GATEWAY_FEATURE_EXAMPLES.includes(name),
);

/** The variables an example documents in its header, `#   NAME=example-value  what it is`. */
function documentedVariables(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^#\s+([A-Z_][A-Z0-9_]*)=(\S+)/gm)].map((match) => [match[1], match[2]]));
}

describe('config/examples: every gateway example loads', () => {
  it('has gateway examples', () => {
    expect(gatewayExamples.length).toBeGreaterThan(0);
  });

  describe.each(gatewayExamples)('%s', (name) => {
    const file = path.join(EXAMPLES, name);
    const text = readFileSync(file, 'utf8');
    const documented = documentedVariables(text);
    const used = [...new Set([...text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]))];

    it('documents every variable it uses in its header', () => {
      expect(used.length).toBeGreaterThan(0); // addresses come from the environment
      expect(Object.keys(documented).sort()).toEqual(used.sort());
    });

    it('loads with its documented variables set, and takes their values', () => {
      const serialized = JSON.stringify(loadConfig({ file, env: documented }));
      for (const value of Object.values(documented)) expect(serialized).toContain(JSON.stringify(value));
    });

    it('loads with none of them set, from their defaults', () => {
      expect(() => loadConfig({ file, env: {} })).not.toThrow();
    });
  });
});
