import { OAUTH_SETTING_KEYS, type OAuthSettings } from '../mcp/oauth/oauth-settings';
import type { ConfigReader } from './config-reader';

/**
 * A Streamable HTTP server's `oauth` setting: a map of OAuthSettings, `true` (the defaults) or `false`
 * (off). Absent, OAuth is on unless the server's `headers` carry an Authorization of their own: static
 * credentials keep working as they did, and any other server may ask for a sign-in with a 401.
 */
export function readOAuthEntry(field: ConfigReader, headers: Readonly<Record<string, string>>): OAuthSettings | undefined {
  if (!field.present) return Object.keys(headers).some((name) => name.toLowerCase() === 'authorization') ? undefined : {};
  if (!field.isObject()) return field.boolean(true) ? {} : undefined;
  field.onlyKeys(OAUTH_SETTING_KEYS);
  const callbackPort = field.at('callbackPort').positiveInteger(0);
  if (callbackPort > 65535) throw field.at('callbackPort').error('a port number (1-65535)');
  const clientMetadataUrl = field.at('clientMetadataUrl').optionalString();
  if (clientMetadataUrl !== undefined && !isHttpsDocumentUrl(clientMetadataUrl))
    throw field.at('clientMetadataUrl').error('an https:// URL with a path');
  const settings: OAuthSettings = {
    clientId: field.at('clientId').optionalString(),
    clientSecret: field.at('clientSecret').optionalString(),
    scopes: field.at('scopes').present ? field.at('scopes').stringList() : undefined,
    callbackPort: callbackPort || undefined,
    clientMetadataUrl,
  };
  if (settings.clientSecret !== undefined && settings.clientId === undefined)
    throw field.at('clientSecret').fail('needs clientId beside it');
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as OAuthSettings;
}

/** A client ID metadata document's URL is the client_id: https with a path (draft-ietf-oauth-client-id-metadata-document). */
function isHttpsDocumentUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}
