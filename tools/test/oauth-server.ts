import path from 'node:path';

import { REPO_ROOT, type ServerProcess, spawnNodeScript } from './server-process';

/** The oidc-provider peer (tools/test/peers/oauth-server.mjs) as its own process on a free port. */
export interface TestOAuthServer extends ServerProcess {
  /** Its issuer, `http://127.0.0.1:<port>`; its keys are at `${issuer}/jwks`. */
  readonly issuer: string;
  /** How many introspection requests it has received so far. */
  introspections(): Promise<number>;
}

/**
 * Starts an authorization server that issues JWT access tokens for `audience` with `scopes`; with
 * `client`, it also knows that confidential client, for the client credentials grant and introspection;
 * `opaque`: its access tokens are opaque, for introspection; `exchange`: the resources that client may
 * exchange an access token for (RFC 8693); `strictRegistration`: a dynamically registered client may ask
 * only for the scopes it registered with; `webClient`: a confidential client for the authorization code grant
 * whose redirect URI is `redirectPath` on any loopback port; `api`: it also serves the "SaaS" API that accepts
 * only its own tokens (`audience` '' then means `<issuer>/api`); `accessTokenTtlSeconds`: its access tokens' life.
 */
export async function startOAuthServer(
  audience: string,
  scopes: readonly string[],
  client?: { readonly id: string; readonly secret: string },
  {
    opaque = false,
    exchange = [],
    strictRegistration = false,
    webClient,
    api = false,
    accessTokenTtlSeconds,
  }: {
    readonly opaque?: boolean;
    readonly exchange?: readonly string[];
    readonly strictRegistration?: boolean;
    readonly webClient?: { readonly id: string; readonly secret: string; readonly redirectPath: string };
    readonly api?: boolean;
    readonly accessTokenTtlSeconds?: number;
  } = {},
): Promise<TestOAuthServer> {
  const server = await spawnNodeScript(
    path.join(REPO_ROOT, 'tools/test/peers/oauth-server.mjs'),
    {},
    /authorization server listening on (http:\/\/\S+)/,
    [
      ...(audience === '' ? [] : [`--audience=${audience}`]),
      `--scopes=${scopes.join(',')}`,
      ...(client ? [`--client=${client.id}:${client.secret}`] : []),
      ...(opaque ? ['--opaque'] : []),
      ...(exchange.length > 0 ? [`--exchange=${exchange.join(',')}`] : []),
      ...(strictRegistration ? ['--strict-registration'] : []),
      ...(webClient ? [`--web-client=${webClient.id}:${webClient.secret}:${webClient.redirectPath}`] : []),
      ...(api ? ['--api'] : []),
      ...(accessTokenTtlSeconds === undefined ? [] : [`--access-token-ttl=${accessTokenTtlSeconds}`]),
    ],
  );
  const issuer = server.match[1];
  const introspections = async () =>
    ((await (await fetch(`${issuer}/introspections`)).json()) as { introspections: number }).introspections;
  return { ...server, issuer, introspections };
}
