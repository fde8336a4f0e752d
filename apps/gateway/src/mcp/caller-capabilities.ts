import { randomUUID } from 'node:crypto';

import { McpMetaKey } from '@toolmesh/protocol';
import { CatalogueGeneration, type ToolDefinition } from '@toolmesh/registry';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { RELAYED_CAPABILITIES } from '../upstreams/capability-attribution';

/**
 * What each caller may see (issue 44): an MCP server may list some tools only to clients declaring
 * sampling, elicitation or roots (capability-attribution.ts); through the gateway a caller is shown, and
 * may call, such a tool only when it declared them too. A caller's relayed capabilities are kept as bits.
 */
const BIT = new Map<string, number>(RELAYED_CAPABILITIES.map((capability, index) => [capability, 1 << index]));
/** A capability the gateway does not relay: no caller can declare it. */
const UNKNOWN = 1 << RELAYED_CAPABILITIES.length;
/**
 * A 2025 client that declared URL-mode elicitation (`elicitation: { url: {} }`, 2025-11-25): the bit above
 * the relayed ones, kept in the session id beside them but never one of a view's bits (callerCapabilities masks it).
 */
const URL_ELICITATION = 1 << RELAYED_CAPABILITIES.length;
const RELAYED_BITS = (1 << RELAYED_CAPABILITIES.length) - 1;
/** How a 2025 session id ends: `.` and the bits in one hexadecimal digit (an id made before URL elicitation ends in 0-7). */
const SESSION_BITS = /\.([0-9a-f])$/;

/** The relayed capabilities a declaration holds (an object such as `initialize`'s `capabilities`), as bits. */
function bitsOf(declared: unknown): number {
  if (typeof declared !== 'object' || declared === null) return 0;
  let bits = 0;
  for (const [capability, bit] of BIT) if ((declared as Record<string, unknown>)[capability] !== undefined) bits |= bit;
  return bits;
}

/** Whether a declaration's `elicitation` names URL mode (an empty one means form mode only). */
function declaresUrlElicitation(declared: unknown): boolean {
  const elicitation = (declared as { elicitation?: unknown } | null | undefined)?.elicitation;
  return typeof elicitation === 'object' && elicitation !== null && (elicitation as { url?: unknown }).url !== undefined;
}

/**
 * A 2025 session's `Mcp-Session-Id`, made by `initialize`: random, and ending in the relayed capabilities
 * the client declared there and whether it takes URL-mode elicitation, since the gateway keeps nothing of a
 * session and any replica may get its next request. A client that alters them only changes what it is itself shown.
 */
export function sessionIdFor(declared: unknown): string {
  return `${randomUUID()}.${(bitsOf(declared) | (declaresUrlElicitation(declared) ? URL_ELICITATION : 0)).toString(16)}`;
}

/** The session's bits as its id tells them (0 without one, or with one this gateway did not make). */
function sessionBits(context: RequestContext): number {
  const session = context.sessionId === undefined ? null : SESSION_BITS.exec(context.sessionId);
  return session === null ? 0 : Number.parseInt(session[1], 16);
}

/**
 * The relayed capabilities the caller of a request declared: a 2026-07-28 request's `_meta`, else the
 * 2025 session's `initialize`, as its session id tells (none without one, or with one this gateway did not make).
 */
export function callerCapabilities(params: Record<string, unknown>, context: RequestContext): number {
  const modern = (params._meta as Record<string, unknown> | undefined)?.[McpMetaKey.ClientCapabilities];
  if (modern !== undefined) return bitsOf(modern);
  return sessionBits(context) & RELAYED_BITS;
}

/**
 * Whether the caller of a request takes URL-mode elicitation (issue 48): a 2026-07-28 request's `_meta`
 * declaration, else its 2025 session's `initialize`.
 */
export function takesUrlElicitation(params: Record<string, unknown>, context: RequestContext): boolean {
  const modern = (params._meta as Record<string, unknown> | undefined)?.[McpMetaKey.ClientCapabilities];
  if (modern !== undefined) return declaresUrlElicitation(modern);
  return (sessionBits(context) & URL_ELICITATION) !== 0;
}

/** The relayed capabilities `bits` stand for, as a declaration (`{ elicitation: {}, roots: {} }`). */
export function declarationOf(bits: number): Record<string, object> {
  const declared: Record<string, object> = {};
  for (const [capability, bit] of BIT) if ((bits & bit) !== 0) declared[capability] = {};
  return declared;
}

/** Whether a caller that declared `bits` may see and call the tool: only an MCP server's tool may need any. */
export function mayUse(tool: ToolDefinition, bits: number): boolean {
  if (tool.target.kind !== 'mcp' || tool.target.requiredCapabilities === undefined) return true;
  let needed = 0;
  for (const capability of tool.target.requiredCapabilities) needed |= BIT.get(capability) ?? UNKNOWN;
  return (needed & ~bits) === 0;
}

/**
 * The catalogue as callers that declared some capabilities see it: the generation itself while none of
 * its tools needs any (found out once per generation, so a catalogue without such a tool costs nothing
 * more), else one generation per set of capabilities, at most eight, built when first asked for.
 */
export class CapabilityViews {
  /** Per generation: undefined when no tool of it needs a capability; else its views by bits. */
  private readonly views = new WeakMap<CatalogueGeneration, Array<CatalogueGeneration | undefined> | undefined>();

  /** `pageSize` (`mcp.catalogue.toolsListPageSize`): a view is paged as the whole list is. */
  constructor(private readonly pageSize: number) {}

  /** Whether some tool of the generation is shown only to callers that declared some capability. */
  gated(generation: CatalogueGeneration): boolean {
    return this.viewsOf(generation) !== undefined;
  }

  /** The generation as the request's caller may see it. */
  visible(generation: CatalogueGeneration, params: Record<string, unknown>, context: RequestContext): CatalogueGeneration {
    const views = this.viewsOf(generation);
    if (views === undefined) return generation;
    const bits = callerCapabilities(params, context);
    let view = views[bits];
    if (view === undefined) {
      const shown = [...generation.tools.values()].filter((tool) => mayUse(tool, bits));
      view = shown.length === generation.size ? generation : new CatalogueGeneration(generation.number, shown, this.pageSize);
      views[bits] = view;
    }
    return view;
  }

  private viewsOf(generation: CatalogueGeneration): Array<CatalogueGeneration | undefined> | undefined {
    if (this.views.has(generation)) return this.views.get(generation);
    const gated = [...generation.tools.values()].some(
      (tool) => tool.target.kind === 'mcp' && tool.target.requiredCapabilities !== undefined,
    );
    const views = gated ? [] : undefined;
    this.views.set(generation, views);
    return views;
  }
}
