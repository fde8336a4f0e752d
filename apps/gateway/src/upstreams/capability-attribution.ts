/**
 * The client capabilities whose requests the gateway relays to its callers (server-request-relay.ts): the
 * only ones an MCP server can tell its clients apart by and still be served through the gateway.
 */
export const RELAYED_CAPABILITIES = ['sampling', 'elicitation', 'roots'] as const;
export type RelayedCapability = (typeof RELAYED_CAPABILITIES)[number];

/** Lists the server's tools as a client that declares exactly `declared` of the relayed capabilities. */
export type ListingAs = (declared: readonly RelayedCapability[]) => Promise<ReadonlyArray<{ readonly name: string }>>;

/**
 * Which of a server's tools it lists only to clients declaring some capability (issue 44), and which
 * capabilities each then needs: `listed` is what it lists to the gateway's own connection, which declares
 * them all. A server may list a tool only to a client that can answer what the tool will ask (the reference
 * server `server-everything` lists `trigger-sampling-request` only to a client with sampling); through the
 * gateway, a caller without it must not see the tool, whose call would ask it what it cannot answer.
 *
 * Listings are kept few, since each is a connection of its own to the server (a 2025 server keys what it
 * lists on the session's `initialize`): one declaring none; only when that one lacks some tool, one more
 * for each capability alone, side by side. A tool is then attributed to each capability whose listing
 * showed it: a caller must declare them all, since the gateway's connection declares every one and the
 * server may ask for any of them. A tool that no single capability showed needs several together; which
 * ones would take a listing per combination, so it is attributed to them all. Nothing is found out about a
 * server that hides a tool from clients with more capabilities (none known does); such a tool is not in
 * `listed` and so not served.
 */
export async function attributeCapabilities(
  listed: ReadonlyArray<{ readonly name: string }>,
  listAs: ListingAs,
): Promise<Record<string, RelayedCapability[]>> {
  const forEveryone = namesOf(await listAs([]));
  const gated = listed.map(({ name }) => name).filter((name) => !forEveryone.has(name));
  if (gated.length === 0) return {};
  const shownAlone = await Promise.all(RELAYED_CAPABILITIES.map(async (capability) => namesOf(await listAs([capability]))));
  const required: Record<string, RelayedCapability[]> = {};
  for (const name of gated) {
    const showing = RELAYED_CAPABILITIES.filter((_, index) => shownAlone[index].has(name));
    required[name] = showing.length > 0 ? showing : [...RELAYED_CAPABILITIES];
  }
  return required;
}

function namesOf(tools: ReadonlyArray<{ readonly name: string }>): ReadonlySet<string> {
  return new Set(tools.map(({ name }) => name));
}
