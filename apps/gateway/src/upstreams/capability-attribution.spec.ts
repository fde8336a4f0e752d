import { attributeCapabilities, type RelayedCapability } from './capability-attribution';

/**
 * A server that lists each tool to a client declaring all of `needs` (none: to every client), as
 * server-everything does, recording each listing's declaration.
 */
function serverListing(needs: Record<string, readonly RelayedCapability[]>) {
  const listings: string[] = [];
  const listAs = async (declared: readonly RelayedCapability[]) => {
    listings.push(declared.join('+') || 'none');
    return Object.entries(needs)
      .filter(([, needed]) => needed.every((capability) => declared.includes(capability)))
      .map(([name]) => ({ name }));
  };
  const listedToAll = Object.keys(needs).map((name) => ({ name }));
  return { listings, listAs, listedToAll };
}

describe('attributeCapabilities (issue 44)', () => {
  it('lists once more, declaring nothing, when the server shows every client the same tools', async () => {
    const { listings, listAs, listedToAll } = serverListing({ echo: [], add: [] });
    expect(await attributeCapabilities(listedToAll, listAs)).toEqual({});
    expect(listings).toEqual(['none']);
  });

  it("attributes each tool the server hides to the capability whose listing alone shows it (server-everything's)", async () => {
    const { listings, listAs, listedToAll } = serverListing({
      echo: [],
      'trigger-sampling-request': ['sampling'],
      'trigger-elicitation-request': ['elicitation'],
      'get-roots-list': ['roots'],
    });
    expect(await attributeCapabilities(listedToAll, listAs)).toEqual({
      'trigger-sampling-request': ['sampling'],
      'trigger-elicitation-request': ['elicitation'],
      'get-roots-list': ['roots'],
    });
    expect(listings).toEqual(['none', 'sampling', 'elicitation', 'roots']);
  });

  it('needs every capability of a tool that no capability alone shows, and each of one that several show alone', async () => {
    const listedToAll = [{ name: 'both' }, { name: 'either' }];
    const listAs = async (declared: readonly RelayedCapability[]) => [
      ...(declared.length === 3 ? [{ name: 'both' }] : []),
      ...(declared.includes('sampling') || declared.includes('roots') ? [{ name: 'either' }] : []),
    ];
    expect(await attributeCapabilities(listedToAll, listAs)).toEqual({
      both: ['sampling', 'elicitation', 'roots'],
      either: ['sampling', 'roots'],
    });
  });

  it('fails as the listing it could not make fails', async () => {
    const listAs = async (declared: readonly RelayedCapability[]) => {
      if (declared.length > 0) throw new Error('HTTP 503');
      return [];
    };
    await expect(attributeCapabilities([{ name: 'ask' }], listAs)).rejects.toThrow('HTTP 503');
  });
});
