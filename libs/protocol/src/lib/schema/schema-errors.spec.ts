import { documentedCodes } from '@toolmesh/test-peers/documented-codes';

import { SchemaErrorCode } from './schema-errors';

describe('schema error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes('protocol schema').sort()).toEqual(Object.values(SchemaErrorCode).sort());
  });
});
