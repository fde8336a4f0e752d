import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { RegistryErrorCode } from './errors';

describe('registry error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('registry').sort()).toEqual(Object.values(RegistryErrorCode).sort());
  });
});
