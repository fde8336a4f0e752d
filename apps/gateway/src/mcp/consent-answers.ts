import { jsonRpcError, JsonRpcErrorCode, type RequestId } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import type { GatewayCallToolResult } from '../call/tool-call-outcome';
import { CONSENT_INPUT_KEY, type ConsentRequired } from '../call/user-consent';
import { toolResult } from '../execution/result-mapper';
import { takesUrlElicitation } from './caller-capabilities';
import type { HandlerResult } from './handlers/method-handler';

/**
 * How an era asks a caller for its user's consent (issue 48; docs/gateway.md, "Tools that act as the
 * user"): undefined when the caller takes no URL-mode elicitation, which then gets `consentNotAsked`.
 */
export type ConsentAnswer = (
  id: RequestId,
  consent: ConsentRequired,
  params: Record<string, unknown>,
  context: RequestContext,
) => HandlerResult | undefined;

const messageOf = ({ bundle }: ConsentRequired) =>
  `The tools of ${bundle} act as you at their service, which you have not authorized yet: open the link to sign in and consent, then the call goes on.`;

/**
 * 2025-11-25: the URL elicitation required error (-32042) with the one elicitation; the retry, after the
 * consent is completed (told by `notifications/elicitation/complete`), finds the user's token.
 */
export const legacyConsent: ConsentAnswer = (id, consent, params, context) => {
  if (!takesUrlElicitation(params, context)) return undefined;
  const { url, elicitationId } = consent;
  const message = messageOf(consent);
  return jsonRpcError(id, JsonRpcErrorCode.UrlElicitationRequired, message, {
    elicitations: [{ mode: 'url', elicitationId, url, message }],
  });
};

/**
 * 2026-07-28 (which forbids -32042): a URL-mode input request. The client's answer comes back with its
 * retry and is the gateway's own (input-required.ts drops it before any tool sees answers); the retry
 * looks in the vault again and either calls the tool or asks once more.
 */
export const modernConsent: ConsentAnswer = (_id, consent, params, context) => {
  if (!takesUrlElicitation(params, context)) return undefined;
  const request = { method: 'elicitation/create', params: { mode: 'url', url: consent.url, message: messageOf(consent) } };
  return { inputRequired: { inputRequests: { [CONSENT_INPUT_KEY]: request } } };
};

/** A caller that takes no URL elicitation: an `isError` result that names the link to open, in either era. */
export function consentNotAsked(tool: string, { bundle, url }: ConsentRequired): GatewayCallToolResult {
  return toolResult(
    `Tool ${tool} was not called: it acts as you at the service of ${bundle}, which you have not authorized yet; open ${url} in your browser to sign in and consent, then call the tool again.`,
    true,
    0,
  );
}
