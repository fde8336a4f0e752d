import type { CanonicalDefinition } from '@toolmesh/protocol';

/** A bundle's policy for changed definitions: only `warn` and `hold` are reviewed; `accept` serves what comes. */
export type ReviewedPolicy = 'warn' | 'hold';

/**
 * A tool's definition against its approval, as `/actuator/toolBundles` shows it: `approved` (served as it
 * is), `changed-held` / `new-held` (`hold`: the last approved definition served, or none), `changed-warned`
 * / `new-warned` (`warn`: served, and said).
 */
export type DefinitionState = 'approved' | 'changed-held' | 'new-held' | 'changed-warned' | 'new-warned';

/** The last definition of a tool that was approved: its hash, and the definition when this gateway has seen it. */
export interface Approval {
  readonly hash: string;
  readonly definition?: CanonicalDefinition;
}

/** What the gateway knows of a tool's approvals: the pin file's hash, and the last approval it stored. */
export interface KnownApprovals {
  readonly pinned?: string;
  readonly stored?: Approval;
}

export interface Review {
  readonly state: DefinitionState;
  /** Which definition the tool is served with: the current one, the last approved one, or none (not served). */
  readonly serve: 'current' | 'approved' | 'none';
  /** Store the current definition as the tool's approval (first sight under trust on first use, or an approved hash seen whole). */
  readonly store: boolean;
}

/**
 * The decision for one tool of a reviewed bundle. A definition is approved when its hash is the pin file's
 * or the last approval's. A tool with no approval at all is approved on first sight (trust on first use)
 * unless the pin file names its bundle: then it is new, and `hold` serves it only once approved.
 */
export function reviewDefinition(policy: ReviewedPolicy, hash: string, known: KnownApprovals, trustOnFirstUse: boolean): Review {
  const { pinned, stored } = known;
  if (hash === pinned || hash === stored?.hash) {
    // Remember the approved definition itself, to serve while a later change is held.
    return { state: 'approved', serve: 'current', store: stored?.hash !== hash || stored.definition === undefined };
  }
  if (pinned === undefined && stored === undefined) {
    if (trustOnFirstUse) return { state: 'approved', serve: 'current', store: true };
    return policy === 'warn' ? { state: 'new-warned', serve: 'current', store: false } : { state: 'new-held', serve: 'none', store: false };
  }
  if (policy === 'warn') return { state: 'changed-warned', serve: 'current', store: false };
  // Held: the last approved definition, when this gateway has it (a pin file holds hashes only).
  return { state: 'changed-held', serve: stored?.definition !== undefined ? 'approved' : 'none', store: false };
}
