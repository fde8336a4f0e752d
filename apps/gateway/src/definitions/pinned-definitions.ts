import { type CanonicalDefinition, canonicalDefinition, DEFINITION_FIELDS, definitionHash, printableName } from '@toolmesh/protocol';
import type { CatalogueStatus } from '@toolmesh/registry';
import type { Logger } from '@toolmesh/transport-http/server';

import type { BundleSettings } from '../config/gateway-config';
import { GatewayErrorCode } from '../errors/gateway-errors';
import type { ApprovalStore } from './approval-store';
import { type DefinitionState, type Review, reviewDefinition, type ReviewedPolicy } from './definition-policy';
import type { PinFile } from './pin-file';

/** A bundle's document source (the registry's `JsonSource`): a manifest, or an MCP server's `tools/list` as `{ tools }`. */
export interface DocumentSource {
  readonly location: string;
  readonly servedFrom?: string;
  fetch(): Promise<unknown>;
}

/** One tool of a reviewed bundle, as `/actuator/toolBundles` shows it. */
export interface DefinitionStatus {
  /** The approved definition's hash (the one served while a change is held); null for a tool never approved. */
  readonly pinnedHash: string | null;
  /** The hash of the definition the source lists now. */
  readonly currentHash: string;
  readonly state: DefinitionState;
}

/** A tool whose definition is not approved, said once per definition: to the boundary log and the audit trail. */
export interface DefinitionNotice extends DefinitionStatus {
  readonly bundle: string;
  readonly tool: string;
}

/** How an operator's approval ended. */
export type ApprovalOutcome =
  | { readonly outcome: 'approved'; readonly hash: string }
  | { readonly outcome: 'unknown-tool' }
  | { readonly outcome: 'not-current'; readonly currentHash: string };

interface ReviewedBundle {
  readonly policy: ReviewedPolicy;
  readonly prefix: string;
  /** What the last review saw, by tool name as served: its status and current definition (what an approval approves). */
  seen: ReadonlyMap<string, DefinitionStatus & { readonly definition: CanonicalDefinition }>;
  /** The last document reviewed and what was served for it, kept while the same document gets the same decisions. */
  last?: { readonly document: unknown; readonly decisions: string; readonly served: unknown };
  /** Per tool, the hash and state last said, so a definition is said once, not at every refresh. */
  readonly noticed: Map<string, string>;
}

export interface PinnedDefinitionsOptions {
  readonly store: ApprovalStore;
  readonly pins?: PinFile;
  readonly logger: Logger;
  /** Each notice also goes here (the audit trail, when it is on). */
  readonly notice?: (notice: DefinitionNotice) => void;
}

/**
 * Pinned tool definitions (issue 46; docs/gateway.md, "Pinned tool definitions"): the bundles whose
 * `definitionChanges` is `warn` or `hold` have their source's document reviewed at each refresh, before the
 * registry reads it, so the catalogue is built from what is approved and nothing is added to a call. Each
 * tool's canonical definition is hashed and compared with its approvals (the pin file's hash, the stored
 * approval): `hold` serves a changed tool with its last approved definition, and a tool never approved not
 * at all; `warn` serves it and says so. An operator approves the current definition by its hash.
 */
export class PinnedDefinitions {
  private readonly bundles = new Map<string, ReviewedBundle>();

  constructor(
    bundles: readonly BundleSettings[],
    private readonly options: PinnedDefinitionsOptions,
  ) {
    for (const bundle of bundles) {
      const policy = bundle.definitionChanges ?? 'accept';
      // An MCP server's names get the prefix in front; a manifest's already start with it (the registry checks).
      const prefix = bundle.mcpServer !== undefined ? (bundle.namePrefix ?? '') : '';
      if (policy !== 'accept') this.bundles.set(bundle.name, { policy, prefix, seen: new Map(), noticed: new Map() });
    }
  }

  /** The bundle's source, reviewed when its policy is `warn` or `hold`; the source itself otherwise. */
  source(bundle: string, inner: DocumentSource): DocumentSource {
    if (!this.bundles.has(bundle)) return inner;
    return {
      get location() {
        return inner.location;
      },
      get servedFrom() {
        return inner.servedFrom;
      },
      fetch: async () => this.review(bundle, await inner.fetch()),
    };
  }

  /** The document with each tool as its review serves it: as it is, as last approved, or left out. */
  async review(bundle: string, document: unknown): Promise<unknown> {
    const reviewed = this.bundles.get(bundle);
    const tools = (document as { tools?: unknown } | null)?.tools;
    // A document that is not a tool list is the registry's to refuse, with its own words.
    if (reviewed === undefined || !Array.isArray(tools)) return document;
    const pinned = this.options.pins?.get(bundle);
    const stored = await this.options.store.read(bundle);
    const seen = new Map<string, DefinitionStatus & { definition: CanonicalDefinition }>();
    const served: unknown[] = [];
    const decisions: string[] = [];
    for (const entry of tools as unknown[]) {
      if (!isNamed(entry)) {
        served.push(entry);
        continue;
      }
      const name = `${reviewed.prefix}${entry.name}`;
      const definition = canonicalDefinition({ ...entry, name });
      const currentHash = definitionHash(definition);
      const known = { pinned: pinned?.get(name), stored: stored.get(name) };
      let review: Review = reviewDefinition(reviewed.policy, currentHash, known, pinned === undefined);
      if (review.store) {
        const firstSight = known.pinned === undefined && known.stored === undefined;
        const kept = await this.options.store.write(bundle, name, { hash: currentHash, definition }, firstSight);
        // Another replica's first sighting was of another definition: that one is the approved one.
        if (kept.hash !== currentHash) review = reviewDefinition(reviewed.policy, currentHash, { ...known, stored: kept }, false);
        known.stored = kept;
      }
      const pinnedHash = review.state === 'approved' ? currentHash : (known.stored?.hash ?? known.pinned ?? null);
      const status = { pinnedHash, currentHash, state: review.state };
      seen.set(name, { ...status, definition });
      this.say(bundle, reviewed, name, status);
      decisions.push(`${name}:${review.serve}:${pinnedHash ?? ''}`);
      if (review.serve === 'current') served.push(entry);
      else if (review.serve === 'approved' && known.stored?.definition !== undefined)
        served.push(withDefinition(entry, known.stored.definition));
    }
    reviewed.seen = seen;
    if (served.length === tools.length && served.every((entry, index) => entry === tools[index])) return document;
    // The same document with the same decisions gives the same object, so the registry does not rebuild the route.
    const signature = decisions.join('\n');
    const { last } = reviewed;
    if (last !== undefined && last.document === document && last.decisions === signature) return last.served;
    reviewed.last = { document, decisions: signature, served: { ...(document as object), tools: served } };
    return reviewed.last.served;
  }

  /** Approves the tool's current definition, named by its hash: the one the operator reviewed, nothing newer. */
  async approve(bundle: string, tool: string, hash: string): Promise<ApprovalOutcome> {
    const current = this.bundles.get(bundle)?.seen.get(tool);
    if (current === undefined) return { outcome: 'unknown-tool' };
    if (current.currentHash !== hash) return { outcome: 'not-current', currentHash: current.currentHash };
    await this.options.store.write(bundle, tool, { hash, definition: current.definition }, false);
    this.options.logger.info('definition_approved', { bundle, tool: printableName(tool), hash });
    return { outcome: 'approved', hash };
  }

  /** `/actuator/toolBundles` with each reviewed bundle's policy and its tools' pinned and current hashes and state. */
  describeBundles(status: CatalogueStatus): CatalogueStatus {
    if (this.bundles.size === 0) return status;
    return {
      ...status,
      bundles: status.bundles.map((row) => {
        const reviewed = this.bundles.get(row.bundle);
        if (reviewed === undefined) return row;
        const definitions = Object.fromEntries(
          [...reviewed.seen].map(([name, { pinnedHash, currentHash, state }]) => [name, { pinnedHash, currentHash, state }]),
        );
        return { ...row, definitionChanges: reviewed.policy, definitions };
      }),
    };
  }

  /** A definition that is not approved, said once per hash and state: names and hashes, never its text. */
  private say(bundle: string, reviewed: ReviewedBundle, tool: string, status: DefinitionStatus): void {
    const key = `${status.currentHash} ${status.state}`;
    if (status.state === 'approved') {
      reviewed.noticed.delete(tool);
      return;
    }
    if (reviewed.noticed.get(tool) === key) return;
    reviewed.noticed.set(tool, key);
    this.options.logger.warn('definition_changed', {
      code: GatewayErrorCode.DefinitionChanged,
      bundle,
      tool: printableName(tool),
      state: status.state,
      pinnedHash: status.pinnedHash ?? 'none',
      currentHash: status.currentHash,
    });
    this.options.notice?.({ bundle, tool, ...status });
  }
}

function isNamed(entry: unknown): entry is Record<string, unknown> & { name: string } {
  return typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string';
}

/** The source's entry (its endpoint, `_meta`, icons: what is not the definition) with the approved definition's members. */
function withDefinition(entry: Record<string, unknown>, approved: CanonicalDefinition): Record<string, unknown> {
  const held = { ...entry };
  for (const field of DEFINITION_FIELDS) {
    if (approved[field] === undefined) delete held[field];
    else held[field] = approved[field];
  }
  return held;
}
