import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { McpClientErrorCode } from './client-errors';

describe('MCP client error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('mcp-client').sort()).toEqual(Object.values(McpClientErrorCode).sort());
  });
});
