import { randomUUID } from 'node:crypto';

import { RequestStateSeal, type StateRefusal } from '../call/request-state-seal';
import type { ConsentSettings } from '../config/consent-settings';

/** What a consent link asks: that `subject` consent to `bundle`, for the call that got elicitation `elicitationId`. */
export interface ConsentRequest {
  readonly subject: string;
  readonly bundle: string;
  readonly elicitationId: string;
}

/** A consent link for a call, and the id of the elicitation that carries it. */
export interface ConsentLink {
  readonly url: string;
  readonly elicitationId: string;
}

/** The consent URL for the subject and bundle (sealing only, no I/O, any replica). */
export type ConsentLinkFor = (subject: string, bundle: string) => ConsentLink;

/** Told once a consent's tokens are in the vault (the call path: the 2025 `notifications/elicitation/complete`). */
export type ConsentCompleted = (subject: string, bundle: string, elicitationId: string) => void;

/**
 * What each seal is for, as its associated data: a state sealed for one step opens at no other, nor as a
 * tool's MRTR state (tool names have no `/`).
 */
export type ConsentStep = 'toolmesh.consent/link' | 'toolmesh.consent/sign-in' | 'toolmesh.consent/authorize';
const LINK: ConsentStep = 'toolmesh.consent/link';

/**
 * The consent flow keeps no state on the gateway: what it must remember travels sealed (the request-state
 * seal, AES-256-GCM under `mcp.requestStateKey`, so any replica opens it) in the link, and then in each
 * authorization request's `state`. A link is bound to the subject it was made for, and opens only for a
 * person signed in as that subject (the MCP spec's MUST); a flow state is bound to the browser that
 * started the flow (a random cookie), against login CSRF, and expires after `consent.flowTtlSeconds`.
 */
export class ConsentSeals {
  private readonly links: RequestStateSeal;
  private readonly flows: RequestStateSeal;

  constructor(
    key: string | undefined,
    private readonly consent: ConsentSettings,
    now: () => number = Date.now,
  ) {
    this.links = RequestStateSeal.fromSecret(key, consent.linkTtlSeconds, now);
    this.flows = RequestStateSeal.fromSecret(key, consent.flowTtlSeconds, now);
  }

  /** A new consent link: its URL carries only the sealed request, whose elicitation id is new. */
  readonly linkFor: ConsentLinkFor = (subject, bundle) => {
    const elicitationId = randomUUID();
    return { url: this.url({ subject, bundle, elicitationId }), elicitationId };
  };

  private url(request: ConsentRequest): string {
    const sealed = this.links.seal(
      { target: LINK, principal: request.subject, request: LINK },
      JSON.stringify({ bundle: request.bundle, elicitationId: request.elicitationId }),
    );
    return `${this.consent.publicUrl.replace(/\/$/, '')}${this.consent.path}?request=${sealed}`;
  }

  /** The request a link carries, if `subject` (who signed in) is the one it was made for. */
  openLink(sealed: string, subject: string): ConsentRequest | { refused: StateRefusal } {
    const opened = this.links.open({ target: LINK, principal: subject, request: LINK }, sealed);
    if ('refused' in opened) return opened;
    const { bundle, elicitationId } = JSON.parse(opened.state) as { bundle: string; elicitationId: string };
    return { subject, bundle, elicitationId };
  }

  seal<T>(step: ConsentStep, browser: string, payload: T): string {
    return this.flows.seal({ target: step, principal: browser, request: step }, JSON.stringify(payload));
  }

  /** A flow state, if sealed for this step in this browser and not expired. */
  open<T>(step: ConsentStep, browser: string, sealed: string): T | undefined {
    const opened = this.flows.open({ target: step, principal: browser, request: step }, sealed);
    return 'refused' in opened ? undefined : (JSON.parse(opened.state) as T);
  }
}
