import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { RewakeErrorCode } from './rewake-errors';

describe('rewake-bridge error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('rewake-bridge').sort()).toEqual(Object.values(RewakeErrorCode).sort());
  });
});
