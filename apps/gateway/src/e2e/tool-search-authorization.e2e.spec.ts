import { DocumentServer } from '@toolmesh/test-peers/document-server';
import { syntheticTools } from '@toolmesh/test-peers/synthetic-tool-catalogue';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

/**
 * `search_tools` with `auth` on (G30 with G27, docs/gateway.md "Searching the catalogue"), end to end: a
 * real JWKS on loopback, RS256 tokens, a tool service whose manifest offers 1,000 synthetic tools (the
 * billing system's 500 and the CRM's 500), and an operator policy that puts every `crm_*` tool behind the
 * `crm:read` scope. Two callers with different scopes search with the same query; each finds only what its
 * own `tools/list` shows it, and a caller without a token is refused before any search.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';
const CATALOGUE = syntheticTools(1_000);
const MANIFEST = { revision: 'billing-and-crm', tools: CATALOGUE.map((tool) => ({ ...tool, endpoint: `/tools/${tool.name}` })) };
/** Written from `crm_export_customer`'s description; the billing system has a tool for customers too. */
const QUERY = 'export the customers of the customer relationship records as a csv file';

let issuer: TokenIssuer;
let service: DocumentServer;
let gateway: TestGateway;

beforeAll(async () => {
  issuer = await startTokenIssuer(AUDIENCE);
  service = await new DocumentServer().start();
  service.serve('/tool-manifest', { json: MANIFEST });
  gateway = await startTestGateway(service.url, (config) => {
    config.mcp.toolSearch = true;
    config.auth = {
      ...authTrusting(issuer, AUDIENCE),
      algorithms: ['RS256'],
      jwksRefetchCooldownMillis: 3_000,
      scopesSupported: ['tools', 'crm:read'],
      toolPolicies: [{ tools: 'crm_*', scopes: ['crm:read'] }],
      maxCachedTokens: 100,
    };
  });
});
afterAll(async () => {
  await gateway?.stop();
  await service?.stop();
  await issuer?.close();
});

const bearer = async (scope: string) => ({ authorization: `Bearer ${await issuer.sign({ client_id: 'agent-cli', scope })}` });

async function listed(headers: Record<string, string>): Promise<Set<string>> {
  const names = new Set<string>();
  let cursor: string | undefined;
  do {
    const reply = await gateway.rpc('tools/list', cursor === undefined ? undefined : { cursor }, headers);
    const page = reply.result as unknown as { tools: Array<{ name: string }>; nextCursor?: string };
    for (const tool of page.tools) names.add(tool.name);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return names;
}

async function found(headers: Record<string, string>, limit: number): Promise<string[]> {
  const reply = await gateway.rpc('tools/call', { name: 'search_tools', arguments: { query: QUERY, limit } }, headers);
  const result = reply.result as unknown as { structuredContent: { tools: Array<{ name: string }> }; isError: boolean };
  expect(result.isError).toBe(false);
  return result.structuredContent.tools.map((tool) => tool.name);
}

describe('search_tools with auth on', () => {
  it('shows each caller only the tools its tools/list shows it, ranked as for everyone', async () => {
    const wide = await bearer('tools crm:read');
    const narrow = await bearer('tools');
    const wideListed = await listed(wide);
    const narrowListed = await listed(narrow);
    expect(wideListed.size).toBe(CATALOGUE.length + 1); // every tool, and search_tools itself
    expect([...narrowListed].some((name) => name.startsWith('crm_'))).toBe(false);

    const wideFound = await found(wide, 10);
    expect(wideFound[0]).toBe('crm_export_customer');
    expect(wideFound.filter((name) => !wideListed.has(name))).toEqual([]);

    // The same query: the CRM's tools rank first for anyone, so a search that ignored the caller would
    // show them here; this caller gets a full page of the billing tools it may call instead.
    const narrowFound = await found(narrow, 10);
    expect(narrowFound).toHaveLength(10);
    expect(narrowFound.filter((name) => !narrowListed.has(name))).toEqual([]);
    expect(narrowFound).toContain('billing_export_customer');
  });

  it('refuses a caller without a token with a 401, as it refuses its tools/list', async () => {
    const res = await gateway.post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_tools', arguments: { query: QUERY } },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer resource_metadata=');
    expect(await res.text()).not.toContain('crm_export_customer');
  });
});
