import { CredentialStore, userConfigDirectory } from './credential-store';
import type { OAuthHost } from './server-oauth';
import { browserUserAgent } from './user-agent';

/**
 * The CLI's OAuthHost: credentials under the user's config directory, the browser for sign-ins, which
 * only a command with someone at the terminal (or `mcp login`) may start.
 */
export function cliOAuthHost(env: NodeJS.ProcessEnv, interactive: boolean, notice: (text: string) => void): OAuthHost {
  return { store: new CredentialStore(userConfigDirectory(env)), userAgent: browserUserAgent(env, notice), interactive };
}
