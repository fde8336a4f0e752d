import type { AuthenticatedCaller } from '@toolmesh/transport-http/server';

/**
 * A call that waits for its user's consent at an outside authorization server (issue 48): the gateway's
 * consent link, made for this caller and bundle, which each era hands the caller its own way (2025: the
 * `-32042` URL elicitation required error; 2026-07-28: a URL-mode input request; a client without URL
 * elicitation: a tool error naming the link).
 */
export interface ConsentRequired {
  /** The bundle whose calls act as the user. */
  readonly bundle: string;
  readonly url: string;
  /** Names this consent in the 2025 `-32042` and in its `notifications/elicitation/complete`. */
  readonly elicitationId: string;
}

/**
 * The key of the gateway's own URL-mode input request for consent in a 2026-07-28 `input_required` result:
 * the client's answer to it is for the gateway (which looks in the vault again), never for the tool.
 */
export const CONSENT_INPUT_KEY = 'io.toolmesh/consent';

/**
 * How a bundle's call is authorized toward its tool service in its caller's name: the `Authorization` it
 * carries (the caller's token exchanged, issue 26; the user's own token at an outside server, issue 48), or
 * the consent the user must give first. Never the caller's token to the gateway.
 */
export interface CallerAuthorization {
  authorization(caller: AuthenticatedCaller | undefined, timeoutMillis: number): Promise<string | ConsentRequired>;
}
