import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { errorMessage, printable } from '@toolmesh/protocol';
import type { Logger } from '@toolmesh/transport-http/server';

import type { ConsentSettings, UserAuthorizationSettings } from '../config/consent-settings';
import { GatewayErrorCode } from '../errors/gateway-errors';
import type { UserTokenVault } from '../user-tokens/user-token-vault';
import type { MetadataCache } from './authorization-server-metadata';
import type { ConsentCompleted, ConsentSeals } from './consent-links';
import { type OAuthClient, type TokenRequests, userTokens } from './outside-tokens';
import type { SignedInSubject } from './signed-in-subject';

/** A browser page of the consent flow, served on GET at its exact path on the MCP port. */
export type ConsentPage = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The cookie that ties a flow's states to the browser that started it. */
const BROWSER_COOKIE = 'toolmesh_consent';

/** What travels in the sign-in's `state`: the link, and this flow's PKCE verifier and OpenID nonce. */
interface SignInState {
  readonly link: string;
  readonly verifier: string;
  readonly nonce: string;
}

/** What travels in the outside authorization request's `state`: whose consent, to what, and its PKCE verifier. */
interface AuthorizeState {
  readonly subject: string;
  readonly bundle: string;
  readonly elicitationId: string;
  readonly verifier: string;
}

export interface ConsentPagesOptions {
  readonly consent: ConsentSettings;
  readonly bundles: ReadonlyMap<string, UserAuthorizationSettings>;
  readonly seals: ConsentSeals;
  readonly metadata: MetadataCache;
  readonly tokens: TokenRequests;
  readonly signedIn: SignedInSubject;
  readonly vault: UserTokenVault;
  readonly completed: ConsentCompleted;
  readonly logger: Logger;
}

/** A refusal the person is shown, with its code and what to do; logged with its reason, never a subject or token. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The consent flow's three pages (docs/gateway.md, "Tools that act as the user"; ADR 0032):
 *
 * 1. `<path>?request=<sealed>`, the link a caller was sent: the person signs in at the gateway's own issuer
 *    (OpenID Connect, code with PKCE), so that the gateway knows who opened it;
 * 2. `<path>/signed-in`: the ID token's subject must be the one the link was made for (else refused, and
 *    nothing is stored: a link forwarded to or phished by someone else is of no use to them); then on to
 *    the bundle's outside authorization server (code with PKCE S256, the bundle's scopes);
 * 3. `<path>/callback`: its code exchanged for the user's tokens, stored in the vault, and the caller told.
 */
export function consentPages(options: ConsentPagesOptions): ReadonlyMap<string, ConsentPage> {
  const { consent, seals, logger } = options;
  const base = `${consent.publicUrl.replace(/\/$/, '')}${consent.path}`;
  const signInClient: OAuthClient = consent.signIn;
  const secureCookie = base.startsWith('https:');

  const page =
    (step: string, handle: (query: URLSearchParams, req: IncomingMessage, res: ServerResponse) => Promise<void>): ConsentPage =>
    async (req, res) => {
      const query = new URL(req.url ?? '/', 'http://consent.invalid').searchParams;
      try {
        await handle(query, req, res);
      } catch (error) {
        const refusal = error instanceof Refusal ? error : undefined;
        if (refusal === undefined) logger.warn('consent_failed', { step, error: errorMessage(error) });
        else logger.info('consent_refused', { step, reason: refusal.reason });
        const code = refusal === undefined ? GatewayErrorCode.ConsentFailed : GatewayErrorCode.ConsentRefused;
        const message =
          refusal?.message ?? 'An authorization server could not be reached or answered unexpectedly; try the link again later.';
        answerPage(res, refusal?.status ?? 502, `${message} (${code})`);
      }
    };

  const browserOf = (req: IncomingMessage): string => {
    const browser = cookie(req, BROWSER_COOKIE);
    if (browser === undefined)
      throw new Refusal(
        400,
        'no_browser_cookie',
        'This page was not reached from a consent link in this browser; open the consent link again.',
      );
    return browser;
  };

  const openLink = page('link', async (query, _req, res) => {
    const link = query.get('request');
    if (link === null || link === '')
      throw new Refusal(400, 'no_request', 'This consent link is incomplete; ask your application for a new one.');
    const browser = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    const state = seals.seal<SignInState>('toolmesh.consent/sign-in', browser, { link, verifier, nonce });
    const { authorizationEndpoint } = await options.metadata.of(consent.signIn.issuer);
    const url = authorizationUrl(authorizationEndpoint, {
      client_id: consent.signIn.clientId,
      redirect_uri: `${base}/signed-in`,
      scope: 'openid',
      state,
      nonce,
      ...pkce(verifier),
    });
    const flags = `Path=${consent.path}; HttpOnly; SameSite=Lax; Max-Age=${consent.flowTtlSeconds}${secureCookie ? '; Secure' : ''}`;
    res.writeHead(302, { location: url, 'set-cookie': `${BROWSER_COOKIE}=${browser}; ${flags}`, 'cache-control': 'no-store' }).end();
  });

  const signedIn = page('signed-in', async (query, req, res) => {
    const browser = browserOf(req);
    const flow = seals.open<SignInState>('toolmesh.consent/sign-in', browser, query.get('state') ?? '');
    if (flow === undefined)
      throw new Refusal(400, 'sign_in_state', 'This sign-in has expired or was started in another browser; open the consent link again.');
    returnedFrom(query, consent.signIn.issuer, 'the sign-in');
    const issued = await options.tokens.grant(signInClient, {
      grant_type: 'authorization_code',
      code: query.get('code') ?? '',
      redirect_uri: `${base}/signed-in`,
      code_verifier: flow.verifier,
    });
    const subject = issued.idToken === undefined ? undefined : await options.signedIn.of(issued.idToken, flow.nonce);
    if (subject === undefined) throw new Refusal(403, 'id_token', 'The sign-in could not be verified; open the consent link again.');
    const request = seals.openLink(flow.link, subject);
    if ('refused' in request) throw linkRefusal(request.refused);
    const authorization = options.bundles.get(request.bundle);
    if (authorization === undefined) throw new Refusal(410, 'unknown_bundle', 'This link is for a tool no longer offered.');
    const verifier = randomBytes(32).toString('base64url');
    const state = seals.seal<AuthorizeState>('toolmesh.consent/authorize', browser, { ...request, verifier });
    const { authorizationEndpoint } = await options.metadata.of(authorization.issuer);
    const url = authorizationUrl(authorizationEndpoint, {
      client_id: authorization.clientId,
      redirect_uri: `${base}/callback`,
      scope: authorization.scopes.join(' '),
      state,
      ...pkce(verifier),
      ...(authorization.resource !== undefined && { resource: authorization.resource }),
      // OpenID Connect Core §11: a server grants `offline_access` (a refresh token) only when consent is asked.
      ...(authorization.scopes.includes('offline_access') && { prompt: 'consent' }),
    });
    res.writeHead(302, { location: url, 'cache-control': 'no-store' }).end();
  });

  const callback = page('callback', async (query, req, res) => {
    const flow = seals.open<AuthorizeState>('toolmesh.consent/authorize', browserOf(req), query.get('state') ?? '');
    if (flow === undefined)
      throw new Refusal(400, 'authorize_state', 'This consent has expired or was started in another browser; open the consent link again.');
    const authorization = options.bundles.get(flow.bundle);
    if (authorization === undefined) throw new Refusal(410, 'unknown_bundle', 'This link is for a tool no longer offered.');
    returnedFrom(query, authorization.issuer, 'the service');
    const issued = await options.tokens.grant(authorization, {
      grant_type: 'authorization_code',
      code: query.get('code') ?? '',
      redirect_uri: `${base}/callback`,
      code_verifier: flow.verifier,
      ...(authorization.resource !== undefined && { resource: authorization.resource }),
    });
    await options.vault.store(flow.subject, flow.bundle, userTokens(issued));
    logger.info('consent_completed', { bundle: flow.bundle });
    options.completed(flow.subject, flow.bundle, flow.elicitationId);
    answerPage(res, 200, `Done: the gateway may now use ${flow.bundle} as you. You can close this page and return to your application.`);
  });

  return new Map([
    [consent.path, openLink],
    [`${consent.path}/signed-in`, signedIn],
    [`${consent.path}/callback`, callback],
  ]);
}

/** Why an opened link is refused, said to the person who opened it. */
function linkRefusal(refused: string): Refusal {
  switch (refused) {
    case 'other_caller':
      return new Refusal(
        403,
        'other_user',
        'This consent link was made for another user: only the person whose request it is may complete it. Nothing was stored.',
      );
    case 'expired':
      return new Refusal(410, 'link_expired', 'This consent link has expired; call the tool again for a new one.');
    default:
      return new Refusal(400, 'link_invalid', 'This consent link was not made by this gateway, or was altered.');
  }
}

/**
 * The authorization response as it came back: an error the server or the person chose is a refusal; an
 * `iss` (RFC 9207), when the server sends one, must be the server this step went to (a mix-up otherwise).
 */
function returnedFrom(query: URLSearchParams, issuer: string, what: string): void {
  const error = query.get('error');
  if (error !== null) throw new Refusal(403, 'authorization_refused', `${what} refused: ${printable(error, 64)}. Nothing was stored.`);
  const iss = query.get('iss');
  if (iss !== null && iss !== issuer)
    throw new Refusal(400, 'issuer_mismatch', `${what} answered from another issuer; open the consent link again.`);
  if (!query.get('code')) throw new Refusal(400, 'no_code', `${what} answered without a code; open the consent link again.`);
}

function pkce(verifier: string): Record<string, string> {
  return { code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' };
}

function authorizationUrl(endpoint: URL, parameters: Record<string, string>): string {
  const url = new URL(endpoint);
  url.searchParams.set('response_type', 'code');
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.href;
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** A plain page: its text only (escaped), never anything of a token or subject. */
function answerPage(res: ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Consent</title></head><body><p>${escaped}</p></body></html>`;
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'",
    })
    .end(html);
}
