import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { StdioErrorCode } from './stdio-errors';

describe('stdio error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('transport-stdio').sort()).toEqual(Object.values(StdioErrorCode).sort());
  });
});
