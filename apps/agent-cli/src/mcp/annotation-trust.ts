import type { ToolAnnotations } from '@toolmesh/mcp-client';
import { ANNOTATIONS_CLAIM_META_KEY } from '@toolmesh/protocol';

import type { SideEffects } from '../tools/tool';

/**
 * How far a server's claims about its own tools are believed (per server, `annotationTrust`):
 * - `ignore` (default): every tool is mutating and destructive, exactly as if it had no annotations;
 *   adding annotation support changed no existing deployment's behaviour.
 * - `read-only`: `readOnlyHint: true` is believed, every other claim ignored (SPEC A14): a server can only
 *   spare its truly read-only tools the question, never talk a mutating one down to "not destructive".
 *   A toolmesh gateway vouches for its manifests' tools, not for the MCP servers it federates: a tool it
 *   marks as an upstream server's (ANNOTATIONS_CLAIM_META_KEY) is treated as under `ignore`.
 * - `read-only-federated`: `read-only`, the marked tools' read-only claims believed too.
 * - `trust`: `readOnlyHint` gives the level, `destructiveHint` the destructiveness (MCP default: true).
 */
export const ANNOTATION_TRUST = ['ignore', 'read-only', 'read-only-federated', 'trust'] as const;
export type AnnotationTrust = (typeof ANNOTATION_TRUST)[number];

/** What a server's tool says of itself that trust reads: its annotations, and its `_meta` for a gateway's mark. */
interface ToolClaims {
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Readonly<Record<string, unknown>>;
}

const UNTRUSTED: SideEffects = { level: 'mutating', destructive: true, basis: 'assumed' };
const UPSTREAM_UNTRUSTED: SideEffects = { level: 'mutating', destructive: true, basis: 'upstream-claim-ignored' };

/**
 * The one place a server's annotations turn into side effects; it runs once per tool at registration.
 * A read-only tool that also claims to be destructive resolves to read-only and non-destructive: nothing
 * reads destructiveness below `mutating`, and storing the contradiction would only make the display lie.
 * Any value under the gateway's marker counts as the mark: it can only withhold trust, never grant it.
 */
export function resolveSideEffects({ annotations, _meta }: ToolClaims, trust: AnnotationTrust): SideEffects {
  if (trust === 'ignore') return UNTRUSTED;
  const upstream = _meta?.[ANNOTATIONS_CLAIM_META_KEY] !== undefined;
  if (upstream && trust === 'read-only') return UPSTREAM_UNTRUSTED;
  const basis = upstream ? 'upstream-claim' : 'server-claim';
  if (annotations?.readOnlyHint === true) return { level: 'read-only', destructive: false, basis };
  if (trust !== 'trust') return UNTRUSTED;
  return { level: 'mutating', destructive: annotations?.destructiveHint !== false, basis };
}
