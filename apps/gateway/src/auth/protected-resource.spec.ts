import { AUTH_DEFAULTS } from '../config/defaults';
import { ProtectedResource } from './protected-resource';

const resource = new ProtectedResource(
  {
    ...AUTH_DEFAULTS,
    audience: 'https://mcp.example.com/mcp',
    authorizationServers: [{ issuer: 'https://login.example.com/', jwksUri: 'https://login.example.com/jwks' }],
    scopesSupported: ['tools'],
  },
  '/mcp',
);
const METADATA = 'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"';

describe('the insufficient_scope challenge', () => {
  it('names the scopes the token grants, then those the tool needs besides, so a client that asks for them keeps what it had', () => {
    expect(resource.insufficientScope(['tools', 'customers:read'], new Set(['tools', 'orders:read']))).toBe(
      `Bearer error="insufficient_scope", ${METADATA}, scope="tools orders:read customers:read"`,
    );
  });

  it('leaves out a granted value that is no scope token, which the quoted parameter could not hold', () => {
    expect(resource.insufficientScope(['customers:read'], new Set(['tools', 'a"b', 'c\\d', '']))).toBe(
      `Bearer error="insufficient_scope", ${METADATA}, scope="tools customers:read"`,
    );
  });
});
