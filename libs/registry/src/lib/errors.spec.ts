import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RegistryErrorCode } from './errors';

describe('registry error codes', () => {
  it('are exactly the registry rows of docs/errors.md', () => {
    const doc = readFileSync(path.join(__dirname, '../../../../docs/errors.md'), 'utf8');
    const documented = [...doc.matchAll(/^\|\s*([A-Z_]+)\s*\|\s*registry\s*\|/gm)].map(([, code]) => code);
    expect(documented.sort()).toEqual(Object.values(RegistryErrorCode).sort());
  });
});
