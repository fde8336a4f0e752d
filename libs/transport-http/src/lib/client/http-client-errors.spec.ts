import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { describeEndpoint, HttpClientErrorCode } from './http-client-errors';

describe('HTTP client error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('transport-http client').sort()).toEqual(Object.values(HttpClientErrorCode).sort());
  });

  it('describe an endpoint without credentials or query', () => {
    expect(describeEndpoint(new URL('https://user:pw@mcp.example.com:8443/mcp?token=abc'))).toBe('https://mcp.example.com:8443/mcp');
  });
});
