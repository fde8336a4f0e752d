import { createHash, randomBytes } from 'node:crypto';

import { freePort } from '@toolmesh/test-peers/free-port';
import { startOAuthServer, type TestOAuthServer } from '@toolmesh/test-peers/oauth-server';

import { CONSENT_DEFAULTS } from '../config/consent-settings';
import { AUTH_DEFAULTS } from '../config/defaults';
import type { GatewayConfig } from '../config/gateway-config';
import { ScriptedBrowser } from './scripted-browser';

/** The gateway's client at its own issuer, for the consent sign-in (and, here, for callers' tokens). */
const CONSENT_CLIENT = { id: 'toolmesh-consent', secret: 'consent-client-secret', redirectPath: '/consent/signed-in' };
/** The gateway's client at the SaaS. */
const SAAS_CLIENT = { id: 'toolmesh-gateway', secret: 'saas-client-secret', redirectPath: '/consent/callback' };

/** The bundle whose calls act as the user at the SaaS, and its one tool (the SaaS API's operation). */
const SAAS_BUNDLE = 'saas';
export const SAAS_TOOL = 'calendar_events';

/**
 * Two authorization servers that do not trust each other (issue 48), both real (oidc-provider, each its own
 * process): the gateway's issuer, whose tokens callers bring and where a consent's person signs in, and a
 * "SaaS", whose API (same process) accepts only the SaaS's own tokens. The gateway's port is chosen first:
 * its endpoint's URL is the audience of callers' tokens.
 */
export interface ConsentPeers {
  readonly issuer: TestOAuthServer;
  readonly saas: TestOAuthServer;
  /** The port the gateway is to listen on, and its endpoint's URL (callers' tokens' audience). */
  readonly port: number;
  readonly audience: string;
  /** The SaaS API's one operation, as the gateway calls it. */
  readonly apiUrl: string;
  /** The secrets the gateway reads from its environment: both clients' and the vault's key. */
  readonly env: Record<string, string>;
  /** The gateway's configuration for them: auth at the issuer, consent, and the SaaS bundle (the only one). */
  configure(config: GatewayConfig): void;
  /** A caller's access token for the gateway, as `user` signed in at the gateway's issuer in `browser`. */
  accessToken(browser: ScriptedBrowser): Promise<string>;
  stop(): Promise<void>;
}

export async function startConsentPeers({ saasAccessTokenTtlSeconds }: { saasAccessTokenTtlSeconds?: number } = {}): Promise<ConsentPeers> {
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  const [issuer, saas] = await Promise.all([
    startOAuthServer(audience, ['tools'], undefined, { webClient: CONSENT_CLIENT }),
    startOAuthServer('', ['calendar.read'], undefined, {
      webClient: SAAS_CLIENT,
      api: true,
      ...(saasAccessTokenTtlSeconds !== undefined && { accessTokenTtlSeconds: saasAccessTokenTtlSeconds }),
    }),
  ]);
  const env = {
    CONSENT_CLIENT_SECRET: CONSENT_CLIENT.secret,
    SAAS_CLIENT_SECRET: SAAS_CLIENT.secret,
    VAULT_KEY: randomBytes(32).toString('base64'),
  };
  return {
    issuer,
    saas,
    port,
    audience,
    apiUrl: `${saas.issuer}/api/calendar/events`,
    env,
    configure: (config) => {
      config.server.port = port;
      config.mcp.bundles = [
        {
          name: SAAS_BUNDLE,
          serviceDomain: saas.issuer,
          openapi: { documentUrl: `${saas.issuer}/api/openapi.json`, operations: [SAAS_TOOL] },
          userAuthorization: {
            issuer: saas.issuer,
            clientId: SAAS_CLIENT.id,
            clientSecret: { env: 'SAAS_CLIENT_SECRET' },
            scopes: ['calendar.read', 'offline_access'],
          },
        },
      ];
      config.auth = { ...AUTH_DEFAULTS, audience, authorizationServers: [{ issuer: issuer.issuer, jwksUri: `${issuer.issuer}/jwks` }] };
      config.consent = {
        ...CONSENT_DEFAULTS,
        publicUrl: `http://127.0.0.1:${port}`,
        signIn: { issuer: issuer.issuer, clientId: CONSENT_CLIENT.id, clientSecret: { env: 'CONSENT_CLIENT_SECRET' } },
        vaultKey: { env: 'VAULT_KEY' },
      };
    },
    accessToken: async (browser) => {
      // Any loopback port: the client is registered for the path (RFC 8252 §7.3); nothing listens there.
      const redirectUri = `http://127.0.0.1:9${CONSENT_CLIENT.redirectPath}`;
      const verifier = randomBytes(32).toString('base64url');
      const authorize = new URL(`${issuer.issuer}/auth`);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: CONSENT_CLIENT.id,
        redirect_uri: redirectUri,
        scope: 'tools',
        resource: audience,
        state: 'caller',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      const landed = await browser.open(authorize, redirectUri);
      const code = landed.url.searchParams.get('code');
      if (code === null) throw new Error(`no code for ${browser.user}: ${landed.status} ${landed.text.slice(0, 200)}`);
      const res = await fetch(`${issuer.issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${CONSENT_CLIENT.id}:${CONSENT_CLIENT.secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          resource: audience,
        }),
      });
      const answer = (await res.json()) as { access_token?: string };
      if (answer.access_token === undefined) throw new Error(`no access token for ${browser.user}: ${JSON.stringify(answer)}`);
      return answer.access_token;
    },
    stop: async () => {
      await Promise.all([issuer.stop(), saas.stop()]);
    },
  };
}
