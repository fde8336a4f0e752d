import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

/**
 * `auth.toolPolicies[].discoverable` (SPEC G27; docs/gateway.md, "Who may call what"): the scope
 * minimization of the MCP authorization specification, end to end over loopback. A caller signed in with
 * the small first scope is shown the customer tools, whose policy is discoverable, and its call of one is
 * refused with the challenge that lets it step up; the order tools, whose policy is not, stay hidden, from
 * `tools/list` and from `search_tools` alike.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';
const METADATA_URL = 'https://gateway.test.invalid/.well-known/oauth-protected-resource/mcp';

let issuer: TokenIssuer;
let tools: SampleToolService;
let gw: TestGateway;

beforeAll(async () => {
  issuer = await startTokenIssuer(AUDIENCE);
  tools = await startSampleToolService();
  gw = await startTestGateway(tools.url, (config) => {
    config.mcp.toolSearch = true;
    config.auth = {
      ...authTrusting(issuer, AUDIENCE),
      scopesSupported: ['tools'],
      toolPolicies: [
        { tools: 'customer_*', scopes: ['customers:read'], discoverable: true },
        { tools: 'order_*', scopes: ['orders:read'] },
      ],
      identityHeaders: { 'x-user-subject': 'sub' },
    };
  });
});
afterAll(async () => {
  await gw?.stop();
  await tools?.stop();
  await issuer?.close();
});

const bearer = async (scope: string) => ({ authorization: `Bearer ${await issuer.sign({ client_id: 'agent-cli', scope })}` });

async function listed(scope: string): Promise<string[]> {
  const reply = await gw.rpc('tools/list', undefined, await bearer(scope));
  return (reply.result?.tools as Array<{ name: string }>).map((tool) => tool.name);
}

async function found(scope: string, query: string): Promise<string[]> {
  const reply = await gw.rpc('tools/call', { name: 'search_tools', arguments: { query } }, await bearer(scope));
  return (reply.result?.structuredContent as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
}

const callCustomerLookup = async (scope: string) =>
  gw.post(
    { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'customer_lookup', arguments: { customerId: 'C1001' } } },
    await bearer(scope),
  );

it('lists a discoverable tool to a caller without its scope, and keeps a non-discoverable one hidden', async () => {
  const names = await listed('tools');
  expect(names).toContain('echo_text');
  expect(names).toContain('customer_lookup');
  expect(names).not.toContain('order_search');
  expect(await listed('tools orders:read')).toContain('order_search');
});

it('shows search_tools what tools/list shows', async () => {
  expect(await found('tools', 'customer')).toContain('customer_lookup');
  expect(await found('tools', 'order')).not.toContain('order_search');
  expect(await found('tools orders:read', 'order')).toContain('order_search');
});

it('refuses the call of a discoverable tool without its scope, with the challenge naming it, before the tool service', async () => {
  await tools.clearCalls();
  const res = await callCustomerLookup('tools');
  expect(res.status).toBe(403);
  expect(res.headers.get('www-authenticate')).toBe(
    `Bearer error="insufficient_scope", resource_metadata="${METADATA_URL}", scope="tools customers:read"`,
  );
  expect(await tools.calls()).toEqual([]);
});

it('calls it once the token carries the scope', async () => {
  await tools.clearCalls();
  const res = await callCustomerLookup('tools customers:read');
  expect(res.status).toBe(200);
  expect(((await res.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
  const [call] = await tools.calls();
  expect(call.headers['x-user-subject']).toBe('user-1');
  expect(call.headers.authorization).toBeUndefined();
});

it('names the discoverable tools in toolBundles, beside the scopes each tool needs', async () => {
  const status = (await (await fetch(`${gw.gateway.managementUrl}/actuator/toolBundles`)).json()) as {
    bundles: Array<{ requiredScopes: Record<string, string[]>; discoverableTools: string[] }>;
  };
  expect(status.bundles[0].requiredScopes).toMatchObject({ customer_lookup: ['customers:read'], order_search: ['orders:read'] });
  expect(status.bundles[0].discoverableTools).toEqual(['customer_lookup']);
});
