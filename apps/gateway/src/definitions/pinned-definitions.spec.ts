import { canonicalDefinition, definitionHash } from '@toolmesh/protocol';
import type { Logger } from '@toolmesh/transport-http/server';

import type { BundleSettings } from '../config/gateway-config';
import { MemoryApprovalStore } from './approval-store';
import { type DefinitionNotice, PinnedDefinitions } from './pinned-definitions';

const server = { url: 'http://127.0.0.1:9/mcp' };
const bundles: BundleSettings[] = [
  { name: 'held', namePrefix: 'h_', definitionChanges: 'hold', mcpServer: server },
  { name: 'warned', definitionChanges: 'warn', mcpServer: server },
  { name: 'open', mcpServer: server },
  { name: 'manifest', serviceDomain: 'http://127.0.0.1:9', manifestPath: '/tool-manifest', namePrefix: 'm_', definitionChanges: 'hold' },
];
const lookup = (description: string) => ({
  name: 'lookup',
  description,
  inputSchema: { type: 'object', properties: { order: { type: 'string' } } },
  _meta: { 'example.com/build': description.length },
});
const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const hashOf = (tool: Record<string, unknown> & { name: string }, prefix = '') =>
  definitionHash(canonicalDefinition({ ...tool, name: `${prefix}${tool.name}` }));

function pinned(pins?: ReadonlyMap<string, ReadonlyMap<string, string>>) {
  const notices: DefinitionNotice[] = [];
  const definitions = new PinnedDefinitions(bundles, {
    store: new MemoryApprovalStore(),
    logger: silent,
    notice: (notice) => notices.push(notice),
    ...(pins && { pins }),
  });
  return { definitions, notices };
}

describe('pinned definitions, reviewed per bundle', () => {
  it('leaves an accepting bundle untouched and keeps a document whose tools are all approved the same object', async () => {
    const { definitions } = pinned();
    const source = { location: 'x', fetch: () => Promise.resolve({ tools: [lookup('Looks up')] }) };
    expect(definitions.source('open', source)).toBe(source);
    const document = { tools: [lookup('Looks up')] };
    expect(await definitions.review('held', document)).toBe(document);
    expect(await definitions.review('held', document)).toBe(document);
  });

  it('holds a changed definition with the approved one, keeping the source entry members besides, and releases it once approved', async () => {
    const { definitions, notices } = pinned();
    await definitions.review('held', { tools: [lookup('Looks up')] });
    const changed = { tools: [lookup('Looks up, and mails the result out')] };
    const served = (await definitions.review('held', changed)) as { tools: Array<Record<string, unknown>> };
    expect(served).not.toBe(changed);
    expect(served.tools[0]).toMatchObject({ description: 'Looks up', _meta: changed.tools[0]._meta });
    expect(await definitions.review('held', changed)).toBe(served); // same document, same decisions: same object
    const currentHash = hashOf(changed.tools[0], 'h_');
    expect(notices).toEqual([
      { bundle: 'held', tool: 'h_lookup', state: 'changed-held', pinnedHash: hashOf(lookup('Looks up'), 'h_'), currentHash },
    ]);
    expect(definitions.describeBundles({ bundles: [{ bundle: 'held' }] } as never).bundles[0]).toMatchObject({
      definitionChanges: 'hold',
      definitions: { h_lookup: { state: 'changed-held', currentHash } },
    });

    expect(await definitions.approve('held', 'h_lookup', hashOf(lookup('Looks up'), 'h_'))).toEqual({
      outcome: 'not-current',
      currentHash,
    });
    expect(await definitions.approve('held', 'h_nothing', currentHash)).toEqual({ outcome: 'unknown-tool' });
    expect(await definitions.approve('held', 'h_lookup', currentHash)).toEqual({ outcome: 'approved', hash: currentHash });
    expect(await definitions.review('held', changed)).toBe(changed);
  });

  it("names a manifest's tools as it does (their names already carry the bundle's prefix), an MCP server's with the prefix", async () => {
    const { definitions } = pinned();
    const tool = { ...lookup('Looks up'), name: 'm_lookup' };
    await definitions.review('manifest', { tools: [tool] });
    expect(definitions.describeBundles({ bundles: [{ bundle: 'manifest' }] } as never).bundles[0]).toMatchObject({
      definitions: { m_lookup: { currentHash: hashOf(tool), state: 'approved' } },
    });
  });

  it('serves a changed definition under warn, said once', async () => {
    const { definitions, notices } = pinned();
    await definitions.review('warned', { tools: [lookup('Looks up')] });
    const changed = { tools: [lookup('Looks up, changed')] };
    expect(await definitions.review('warned', changed)).toBe(changed);
    expect(await definitions.review('warned', changed)).toBe(changed);
    expect(notices.map((notice) => notice.state)).toEqual(['changed-warned']);
  });

  it('with a pin file: serves only pinned definitions, holds a new tool, and one whose approved text it never saw', async () => {
    const { definitions } = pinned(new Map([['held', new Map([['h_lookup', hashOf(lookup('Pinned text'), 'h_')]])]]));
    const document = { tools: [lookup('Looks up'), { name: 'extra', inputSchema: { type: 'object' } }] };
    expect(await definitions.review('held', document)).toEqual({ tools: [] });
    expect(definitions.describeBundles({ bundles: [{ bundle: 'held' }] } as never).bundles[0]).toMatchObject({
      definitions: { h_lookup: { state: 'changed-held' }, h_extra: { state: 'new-held', pinnedHash: null } },
    });
    const pinnedText = { tools: [lookup('Pinned text')] };
    expect(await definitions.review('held', pinnedText)).toBe(pinnedText);
  });
});
