import type { Tool as McpToolDefinition } from '@toolmesh/mcp-client';
import { canonicalDefinition, definitionHash } from '@toolmesh/protocol';

import type { McpServerConfig } from '../server-config';
import { definitionDiff } from './definition-diff';
import type { PinStore } from './pin-store';

/**
 * A tool's definition against its pin: `pinned` (as approved, or approved just now), `new` (first seen,
 * pinned now: trust on first use), or `changed` (differs from the pin and not approved: the tool is withheld).
 */
export type PinState =
  | { readonly state: 'pinned' | 'new'; readonly hash: string }
  | { readonly state: 'changed'; readonly hash: string; readonly pinnedHash: string };

/** A changed definition, for whoever decides: the server's and tool's names and the diff lines. */
export interface ToolDrift {
  readonly server: string;
  readonly tool: string;
  readonly diff: readonly string[];
}

/** Whether the user approves a changed definition; one question at a time (ToolPins serialises them). */
export type DriftApprover = (drift: ToolDrift) => Promise<boolean>;

/**
 * Checks a server's tool list against the user's pins, at connect and at every new list: new tools are
 * pinned as they are, a changed one is put to the approver, and re-pinned only when approved.
 */
export class ToolPins {
  /** The approvals in flight, chained: two servers' changes never ask at once. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: PinStore,
    private readonly approve: DriftApprover,
  ) {}

  check(server: McpServerConfig, definitions: readonly McpToolDefinition[]): Promise<Map<string, PinState>> {
    const checked = this.queue.then(() => this.checkNow(server, definitions));
    this.queue = checked.catch(() => undefined);
    return checked;
  }

  private async checkNow(server: McpServerConfig, definitions: readonly McpToolDefinition[]): Promise<Map<string, PinState>> {
    const pins = this.store.read(server);
    const states = new Map<string, PinState>();
    let changedPins = false;
    for (const definition of definitions) {
      const canonical = canonicalDefinition(definition);
      const hash = definitionHash(canonical);
      const pin = Object.hasOwn(pins, definition.name) ? pins[definition.name] : undefined;
      if (pin?.hash === hash) {
        states.set(definition.name, { state: 'pinned', hash });
        continue;
      }
      if (pin && !(await this.approve({ server: server.name, tool: definition.name, diff: definitionDiff(pin.definition, canonical) }))) {
        states.set(definition.name, { state: 'changed', hash, pinnedHash: pin.hash });
        continue;
      }
      pins[definition.name] = { hash, definition: canonical };
      changedPins = true;
      states.set(definition.name, { state: pin ? 'pinned' : 'new', hash });
    }
    if (changedPins) this.store.write(server, pins);
    return states;
  }
}
