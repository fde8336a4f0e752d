import type { IncomingMessage, ServerResponse } from 'node:http';

import { operatorAuthorized, readJsonBody, sendJson } from '../call/operator-request';
import { GatewayErrorCode } from '../errors/gateway-errors';
import type { UserTokenVault } from './user-token-vault';

const REVOKE_PATH = '/actuator/userTokens/revoke';
/** A subject and a bundle name, with room: a revocation names one of each at most. */
const MAX_BODY_BYTES = 4096;

/**
 * `POST /actuator/userTokens/revoke` with `{"subject": "...", "bundle": "..."}` on the management port: an
 * operator forgets a user's tokens for one bundle, or for every bundle without `bundle`; the user's next
 * call asks for consent again. The subject travels in the body, never the URL, which proxies and access
 * logs keep. Served only where some bundle has `userAuthorization`; authorized as an approval of a pinned
 * definition is (`operatorAuthorized`). Answers `{"removed": n}`, the bundles whose tokens were there; the
 * answer and the logs never repeat the subject.
 */
export function revokeEndpoint(
  vault: Pick<UserTokenVault, 'revoke'>,
  token: () => string | undefined,
): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  return (req, res, path) => {
    if (path !== REVOKE_PATH) return false;
    void revoke(req, res, vault, token()).catch((error: unknown) =>
      (error as { code?: unknown } | null)?.code === GatewayErrorCode.UserTokensUnavailable
        ? sendJson(res, 503, { error: 'user_tokens_unavailable', message: "the vault's Redis did not answer: nothing was revoked; retry" })
        : sendJson(res, 500, { error: 'revoke_failed', message: 'the revocation could not be made' }),
    );
    return true;
  };
}

async function revoke(
  req: IncomingMessage,
  res: ServerResponse,
  vault: Pick<UserTokenVault, 'revoke'>,
  token: string | undefined,
): Promise<void> {
  if (req.method !== 'POST') {
    req.resume();
    res.setHeader('allow', 'POST');
    return sendJson(res, 405, { error: 'method_not_allowed', message: 'a revocation is a POST' });
  }
  if (!operatorAuthorized(req, res, token, "revoking users' tokens")) return;
  const body = (await readJsonBody(req, MAX_BODY_BYTES)) as { subject?: unknown; bundle?: unknown } | null | undefined;
  const { subject, bundle } = body ?? {};
  if (typeof subject !== 'string' || subject === '' || (bundle !== undefined && typeof bundle !== 'string'))
    return sendJson(res, 400, {
      error: 'bad_request',
      message: 'the body must be {"subject": "<the caller\'s verified sub>", "bundle": "<bundle name>"}, bundle left out for all',
    });
  return sendJson(res, 200, { removed: await vault.revoke(subject, bundle) });
}
