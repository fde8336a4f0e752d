import { CatalogueGeneration, type ToolDefinition } from '@toolmesh/registry';
import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

import { testTool } from '../test-support/test-tool';
import { ToolAuthorization } from './tool-authorization';

const tool = (name: string, requiredScopes?: string[]): ToolDefinition => testTool(name, requiredScopes && { requiredScopes });
const caller = (...scopes: string[]): AuthenticatedCaller => ({ subject: 'u', scopes: new Set(scopes), claims: {} });
const names = (generation: CatalogueGeneration) => [...generation.tools.keys()];

describe('ToolAuthorization (SPEC G27)', () => {
  const generation = new CatalogueGeneration(1, [tool('echo'), tool('orders_list', ['orders:read']), tool('billing.refund', ['billing'])]);
  const named = (name: string): ToolDefinition => {
    const found = generation.tools.get(name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  };
  const authorization = new ToolAuthorization([{ tools: 'billing.*', scopes: ['billing:admin'] }], 100);

  it("requires the manifest's scopes and those of every matching policy", () => {
    expect(authorization.requiredScopes(named('billing.refund'))).toEqual(['billing', 'billing:admin']);
    expect(authorization.requiredScopes(named('echo'))).toEqual([]);
  });

  it('names the scopes a caller lacks; nothing is missing when nobody is authenticated', () => {
    const refund = named('billing.refund');
    expect(authorization.missingScopes(caller('billing'), refund)).toEqual(['billing:admin']);
    expect(authorization.missingScopes(caller('billing', 'billing:admin'), refund)).toEqual([]);
    expect(authorization.missingScopes(undefined, refund)).toEqual([]);
  });

  it('shows each caller only the tools it may call, paged as the whole list is, and the whole generation to one that may call all', () => {
    expect(names(authorization.visibleCatalogue(generation, caller()))).toEqual(['echo']);
    expect(names(authorization.visibleCatalogue(generation, caller('orders:read')))).toEqual(['echo', 'orders_list']);
    const everything = caller('orders:read', 'billing', 'billing:admin');
    expect(authorization.visibleCatalogue(generation, everything)).toBe(generation);
    expect(authorization.visibleCatalogue(generation, undefined)).toBe(generation);
    const view = authorization.visibleCatalogue(generation, caller('orders:read'));
    expect(JSON.parse(view.toolsListPage('modern', undefined)?.json ?? '{}').tools.map((t: { name: string }) => t.name)).toEqual([
      'echo',
      'orders_list',
    ]);
  });

  it('builds one list per generation and set of scopes, whatever order they were granted in', () => {
    expect(authorization.visibleCatalogue(generation, caller('orders:read', 'billing'))).toBe(
      authorization.visibleCatalogue(generation, caller('billing', 'orders:read')),
    );
  });
});

describe('a discoverable policy (SPEC G27, scope minimization)', () => {
  const generation = new CatalogueGeneration(1, [tool('echo'), tool('orders_list', ['orders:read']), tool('billing.refund', ['billing'])]);
  const authorization = new ToolAuthorization(
    [
      { tools: 'billing.*', scopes: ['billing:admin'], discoverable: true },
      { tools: 'orders_*', scopes: ['orders:write'] },
    ],
    100,
  );
  const refund = generation.tools.get('billing.refund') as ToolDefinition;

  it('lists a tool to a caller without its scopes, who still lacks them to call it', () => {
    expect(names(authorization.visibleCatalogue(generation, caller('billing')))).toEqual(['echo', 'billing.refund']);
    expect(authorization.missingScopes(caller('billing'), refund)).toEqual(['billing:admin']);
    expect(authorization.requiredScopes(refund)).toEqual(['billing', 'billing:admin']);
  });

  it("still needs the manifest's scopes and those of the other policies to show a tool", () => {
    expect(names(authorization.visibleCatalogue(generation, caller()))).toEqual(['echo']);
    expect(names(authorization.visibleCatalogue(generation, caller('orders:read')))).toEqual(['echo']);
    expect(names(authorization.visibleCatalogue(generation, caller('orders:read', 'orders:write')))).toEqual(['echo', 'orders_list']);
  });
});
