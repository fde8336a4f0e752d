import type { ToolAnnotations } from '@toolmesh/mcp-client';

import type { SideEffects } from '../tools/tool';

/**
 * How far a server's claims about its own tools are believed (per server, `annotationTrust`):
 * - `ignore` (default): every tool is mutating and destructive, exactly as if it had no annotations;
 *   adding annotation support changed no existing deployment's behaviour.
 * - `read-only`: `readOnlyHint: true` is believed, every other claim ignored (SPEC A14): a server can only
 *   spare its truly read-only tools the question, never talk a mutating one down to "not destructive".
 * - `trust`: `readOnlyHint` gives the level, `destructiveHint` the destructiveness (MCP default: true).
 */
export const ANNOTATION_TRUST = ['ignore', 'read-only', 'trust'] as const;
export type AnnotationTrust = (typeof ANNOTATION_TRUST)[number];

const UNTRUSTED: SideEffects = { level: 'mutating', destructive: true, basis: 'assumed' };

/**
 * The one place a server's annotations turn into side effects; it runs once per tool at registration.
 * A read-only tool that also claims to be destructive resolves to read-only and non-destructive: nothing
 * reads destructiveness below `mutating`, and storing the contradiction would only make the display lie.
 */
export function resolveSideEffects(annotations: ToolAnnotations | undefined, trust: AnnotationTrust): SideEffects {
  if (trust === 'ignore') return UNTRUSTED;
  if (annotations?.readOnlyHint === true) return { level: 'read-only', destructive: false, basis: 'server-claim' };
  if (trust === 'read-only') return UNTRUSTED;
  return { level: 'mutating', destructive: annotations?.destructiveHint !== false, basis: 'server-claim' };
}
