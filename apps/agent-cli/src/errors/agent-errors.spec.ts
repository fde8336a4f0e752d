import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { AgentErrorCode } from './agent-errors';

describe('agent-cli error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('agent-cli').sort()).toEqual(Object.values(AgentErrorCode).sort());
  });
});
