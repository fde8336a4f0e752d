import { readFileSync } from 'node:fs';
import path from 'node:path';

import { JsonRpcErrorCode } from './error-codes';

const DOC = path.join(__dirname, '../../../../../docs/errors.md');

/** Rows of the "JSON-RPC error codes" table: `| -32700 | ParseError | ... |`. */
function documentedCodes(): Record<string, number> {
  const rows = readFileSync(DOC, 'utf8').matchAll(/^\|\s*(-\d+)\s*\|\s*(\w+)\s*\|/gm);
  return Object.fromEntries([...rows].map(([, code, name]) => [name, Number(code)]));
}

describe('JSON-RPC error codes', () => {
  it('are exactly the ones docs/errors.md documents', () => {
    expect(documentedCodes()).toEqual({ ...JsonRpcErrorCode });
  });

  it('keep server-defined codes inside the range JSON-RPC reserves for servers', () => {
    const standard = [-32700, -32600, -32601, -32602, -32603];
    // -32020..-32099 belong to the MCP specification (-32042: 2025-11-25's URL elicitation required); ours are the implementation-defined -32000..-32019.
    const specified = [-32020, -32021, -32022, -32042];
    for (const code of Object.values(JsonRpcErrorCode).filter((c) => !standard.includes(c) && !specified.includes(c))) {
      expect(code).toBeGreaterThanOrEqual(-32019);
      expect(code).toBeLessThanOrEqual(-32000);
    }
  });
});
