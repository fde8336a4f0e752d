import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { loadConfig } from './load-config';

const dir = mkdtempSync(path.join(tmpdir(), 'consent-config-'));
function yamlFile(text: string): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return file;
}

const auth = `
auth:
  audience: https://gateway.example/mcp
  authorizationServers: [{ issuer: https://login.example, jwksUri: https://login.example/jwks }]
`;
const saas = 'userAuthorization: { issuer: https://saas.example, clientId: gw, clientSecret: { env: SAAS_SECRET }, scopes: [calendar] }';
const bundle = `mcp:
  requestStateKey: ${'k'.repeat(32)}
  bundles: [{ name: calendar, serviceDomain: "https://api.saas.example", openapi: { documentFile: api.yaml }, ${saas} }]
`;
const consent = `
consent:
  publicUrl: https://gateway.example
  signIn: { issuer: https://login.example, clientId: consent, clientSecret: { env: CONSENT_SECRET } }
  vaultKey: { file: /run/secrets/vault-key }
`;

describe('consent settings (issue 48)', () => {
  it("take a bundle's userAuthorization and the consent section's defaults", () => {
    const config = loadConfig({ file: yamlFile(`${auth}${bundle}${consent}`), env: {} });
    expect(config.mcp.bundles[0].userAuthorization).toEqual({
      issuer: 'https://saas.example',
      clientId: 'gw',
      clientSecret: { env: 'SAAS_SECRET' },
      scopes: ['calendar'],
    });
    expect(config.consent).toMatchObject({ path: '/consent', linkTtlSeconds: 600, flowTtlSeconds: 600, httpTimeoutMillis: 5000 });
  });

  it.each([
    ['userAuthorization without caller authentication', `${bundle}${consent}`, 'userAuthorization needs caller authentication (auth)'],
    ['userAuthorization without a consent section', `${auth}${bundle}`, 'userAuthorization needs a consent section'],
    ['a consent section with no bundle to consent to', `${auth}${consent}`, 'no bundle has userAuthorization'],
    [
      'a sign-in issuer the gateway does not trust',
      `${auth}${bundle}${consent.replace('issuer: https://login.example', 'issuer: https://elsewhere.example')}`,
      'consent.signIn.issuer https://elsewhere.example must be one of auth.authorizationServers',
    ],
    [
      'userAuthorization beside a token exchange',
      `${auth}${bundle.replace(saas, `${saas}, tokenExchange: { tokenUrl: "https://as/token", clientId: gw, clientSecret: { env: S }, resource: "https://a/" }`)}${consent}`,
      'userAuthorization and tokenExchange would both set the token sent',
    ],
    [
      'a client secret given as a literal',
      `${auth}${bundle.replace('{ env: SAAS_SECRET }', 's3cret')}${consent}`,
      'clientSecret must be object',
    ],
    [
      'userAuthorization on an MCP server bundle',
      `${auth}${bundle.replace('serviceDomain: "https://api.saas.example", openapi: { documentFile: api.yaml }', 'mcpServer: { url: "https://mcp.saas.example/mcp" }')}${consent}`,
      'userAuthorization is not yet for MCP server bundles',
    ],
  ])('refuse %s', (_, text, message) => {
    expect(() => loadConfig({ file: yamlFile(text), env: {} })).toThrow(
      expect.objectContaining({ code: 'gateway.config_invalid', message: expect.stringContaining(message) }),
    );
  });
});
