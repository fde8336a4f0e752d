#!/usr/bin/env node
/**
 * A real OAuth 2.1 authorization server on loopback, for the gateway's tests and for trying
 * config/examples/oauth.yaml: oidc-provider (ADR 0023) with dynamic client registration, PKCE (S256,
 * required), resource indicators (RFC 8707: access tokens are JWTs whose audience is the resource asked
 * for) and refresh tokens (for `offline_access`). Nobody types a password: every authorization is granted
 * at once, as user `--subject`, with the scopes asked for. For trying and tests only, never for production.
 *
 * Step-up (a second authorization for more scope) works for the MCP SDKs' own clients (issue 45): a
 * dynamically registered client may ask for any scope this server grants, whatever `scope` it registered
 * with (RFC 7591 §3.2.1 lets a server replace it), as both SDKs register once with their first, minimal
 * scope and ask for more later; and a refresh token is issued only when `offline_access` is asked for, as
 * OpenID Connect has it, since SDK 1.x answers a 403 `insufficient_scope` with a refresh while it holds one,
 * which can never add a scope (RFC 6749 §6), and gives up (`403 after trying upscoping`).
 *
 *   --port=<n>          port on 127.0.0.1 (default 0: any free one)
 *   --audience=<uri>    the one resource it issues tokens for (the gateway's auth.audience); required
 *   --scopes=<a,b>      the scopes it grants for that resource (default tools,customers:read)
 *   --subject=<id>      the user every authorization is for (default user-1)
 *   --strict-registration  a dynamically registered client may ask only for the scopes it registered with
 *                       (oidc-provider's own rule, which some production servers share): the SDKs cannot step up
 *   --client=<id>:<secret>  also a registered confidential client for the client credentials grant
 *                       (client_secret_basic), as machine-to-machine callers use, and for introspection
 *   --opaque            access tokens are opaque (for RFC 7662 introspection, at <issuer>/token/introspection;
 *                       revocation at <issuer>/token/revocation) instead of JWTs; GET <issuer>/introspections
 *                       answers how many introspection requests it has received, for tests that count them
 *   --exchange=<uri,..> RFC 8693 token exchange, for the `--client` only: an access token this server issued for
 *                       `--audience` is exchanged for a JWT of the same subject whose audience is one of these
 *                       resources (`resource` parameter), with the scopes asked for among `--scopes`
 *
 *   --web-client=<id>:<secret>:<path>  also a registered confidential client for the authorization code grant
 *                       (client_secret_basic, PKCE, refresh tokens with `offline_access`) whose redirect URI is
 *                       http://127.0.0.1:<any port><path> (a loopback redirect matches on any port, RFC 8252 §7.3):
 *                       the gateway's consent sign-in at its issuer, or the gateway at a "SaaS" (issue 48)
 *   --api               also a "SaaS" API that accepts only this server's access tokens (issue 48): its OpenAPI
 *                       document at <issuer>/api/openapi.json, and GET <issuer>/api/calendar/events answering who
 *                       the token is for (`user`) and its id (`tokenId`); `--audience` defaults to <issuer>/api
 *   --access-token-ttl=<s>  life of the access tokens for `--audience` (default 3600)
 *
 * A person may sign in as another user than `--subject`: the interaction page takes `?login=<user>` (what
 * a login form would post), as the consent e2e's scripted browsers do to be user A or user B.
 *
 * Prints `authorization server listening on <issuer>` once it accepts requests; its keys are at <issuer>/jwks.
 */
import { createServer } from 'node:http';

import { exportJWK, generateKeyPair, jwtVerify } from 'jose';
import Provider, { errors } from 'oidc-provider';

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, ...value] = arg.replace(/^--/, '').split('=');
    return [key, value.join('=')];
  }),
);
const api = flags.api !== undefined;
if (!flags.audience && !api) {
  process.stderr.write('oauth-server: --audience=<the resource URI tokens are for> is required\n');
  process.exit(2);
}
const accessTokenTTL = Number(flags['access-token-ttl'] || 3600);
const [webClientId, webClientSecret, webRedirectPath] = (flags['web-client'] || '').split(':');
const scopes = (flags.scopes || 'tools,customers:read').split(',').filter(Boolean);
const subject = flags.subject || 'user-1';
const [machineId, machineSecret] = (flags.client || '').split(':');
const exchangeResources = (flags.exchange || '').split(',').filter(Boolean);
const strictRegistration = flags['strict-registration'] !== undefined;

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

const server = createServer();
await new Promise((resolve) => server.listen(Number(flags.port || 0), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const audience = flags.audience || `${issuer}/api`;

const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: 'oauth-server-1', use: 'sig', alg: 'RS256' };

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  clients: [
    ...(machineId
      ? [
          {
            client_id: machineId,
            client_secret: machineSecret,
            grant_types: ['client_credentials', ...(exchangeResources.length > 0 ? [TOKEN_EXCHANGE] : [])],
            redirect_uris: [],
            response_types: [],
            token_endpoint_auth_method: 'client_secret_basic',
            scope: scopes.join(' '),
          },
        ]
      : []),
    ...(webClientId
      ? [
          {
            client_id: webClientId,
            client_secret: webClientSecret,
            application_type: 'native',
            grant_types: ['authorization_code', 'refresh_token'],
            redirect_uris: [`http://127.0.0.1${webRedirectPath}`],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ]
      : []),
  ],
  scopes: ['openid', 'offline_access', ...scopes],
  // oidc-provider refuses a client any scope beyond the `scope` it registered with: dropped for the
  // registrations of clients that ask for more scope later (see above), kept for the configured `--client`.
  extraClientMetadata: {
    properties: ['scope'],
    validator: (ctx, _key, _value, metadata) => {
      if (!strictRegistration && ctx?.oidc?.route === 'registration') delete metadata.scope;
    },
  },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => audience,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resourceIndicator) => {
        if (resourceIndicator !== audience) throw new errors.InvalidTarget();
        const format =
          flags.opaque === undefined ? { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } } : { accessTokenFormat: 'opaque' };
        return { scope: scopes.join(' '), audience, accessTokenTTL, ...format };
      },
    },
  },
  pkce: { required: () => true },
  issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
  clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' },
  findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
  cookies: { keys: [signingKey.kid] },
});

if (exchangeResources.length > 0)
  provider.registerGrantType(TOKEN_EXCHANGE, exchangeToken, ['subject_token', 'subject_token_type', 'scope', 'resource']);

/**
 * RFC 8693: the subject token must be an access token of this server for `audience`, still good (a JWT
 * checked with the server's key, an opaque one looked up); the new token is the same subject's, for the
 * resource asked, with the scopes asked that `--scopes` has (all of them when none is asked).
 */
async function exchangeToken(ctx) {
  const { subject_token: subjectToken, subject_token_type: subjectTokenType, resource, scope } = ctx.oidc.params;
  if (subjectTokenType !== ACCESS_TOKEN_TYPE) throw new errors.InvalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
  if (!exchangeResources.includes(resource)) throw new errors.InvalidTarget();
  const subjectOf = await tokenSubject(subjectToken);
  if (subjectOf === undefined) throw new errors.InvalidGrant('subject_token is not a valid access token of this server');
  const asked = scope ? scope.split(' ') : scopes;
  const granted = asked.filter((each) => scopes.includes(each));
  const token = new provider.AccessToken({
    accountId: subjectOf,
    client: ctx.oidc.client,
    scope: granted.join(' '),
    gty: 'token_exchange',
  });
  token.resourceServer = {
    audience: resource,
    scope: granted.join(' '),
    accessTokenTTL: 600,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: 'RS256' } },
    identifier: () => resource,
  };
  ctx.body = {
    access_token: await token.save(),
    issued_token_type: ACCESS_TOKEN_TYPE,
    token_type: 'Bearer',
    expires_in: token.expiration,
    scope: granted.join(' '),
  };
}

/** The subject of an access token this server issued for `audience` that is still good, else undefined. */
async function tokenSubject(token) {
  if (typeof token !== 'string' || token === '') return undefined;
  if (token.split('.').length === 3) {
    const verified = await jwtVerify(token, publicKey, { issuer, audience }).catch(() => undefined);
    return verified?.payload.sub;
  }
  const found = await provider.AccessToken.find(token);
  return found !== undefined && !found.isExpired ? found.accountId : undefined;
}

/** The user agrees at once: logged in as `subject` (or `?login=<user>`), every scope and resource asked for granted. */
async function grantAtOnce(req, res) {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  if (prompt.name === 'login') {
    const login = new URL(req.url, issuer).searchParams.get('login') || subject;
    await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [indicator, granted] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, granted.join(' '));
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

/** The "SaaS" API's one operation, as an OpenAPI document the gateway reads (issue 48). */
const API_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'SaaS calendar', version: '1.0.0' },
  paths: {
    '/api/calendar/events': {
      get: {
        operationId: 'calendar_events',
        summary: "The signed-in user's calendar events at the SaaS",
        responses: {
          200: {
            description: 'whose events, with which token',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    user: { type: 'string' },
                    tokenId: { type: 'string' },
                    events: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

/** The API accepts only this server's access tokens for `audience`, unexpired: any other bearer gets a 401. */
async function serveApi(req, res) {
  const path = new URL(req.url, issuer).pathname;
  if (path === '/api/openapi.json') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(API_DOCUMENT));
    return;
  }
  if (path !== '/api/calendar/events') {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
    return;
  }
  const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const verified = bearer && (await jwtVerify(bearer, publicKey, { issuer, audience }).catch(() => undefined));
  if (!verified) {
    res
      .writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' })
      .end('{"error":"invalid_token"}');
    return;
  }
  const { sub, jti } = verified.payload;
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ user: sub, tokenId: jti, events: [`${sub}: stand-up 09:30`] }));
}

const callback = provider.callback();
let introspections = 0;
server.on('request', (req, res) => {
  if (req.method === 'POST' && req.url === '/token/introspection') introspections += 1;
  if (req.method === 'GET' && req.url === '/introspections') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ introspections }));
    return;
  }
  if (api && req.url.startsWith('/api/')) {
    serveApi(req, res).catch((error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`api failed: ${error.message}`));
    return;
  }
  if (!req.url.startsWith('/interaction/')) {
    callback(req, res);
    return;
  }
  grantAtOnce(req, res).catch((error) => {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`interaction failed: ${error.message}`);
  });
});
process.stdout.write(`authorization server listening on ${issuer}\n`);
