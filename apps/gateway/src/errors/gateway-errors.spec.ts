import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { GatewayErrorCode } from './gateway-errors';

describe('gateway error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('gateway').sort()).toEqual(Object.values(GatewayErrorCode).sort());
  });
});
