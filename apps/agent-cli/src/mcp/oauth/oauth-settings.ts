/**
 * A server's `oauth` settings (docs/agent-cli.md, "OAuth for remote servers"). All optional: with none, the
 * agent discovers everything and registers itself (client ID metadata document when configured and
 * supported, else dynamic client registration).
 */
export interface OAuthSettings {
  /** A client pre-registered with the authorization server; skips registration. */
  readonly clientId?: string;
  /** Its secret, for a confidential pre-registered client (sent as the server's metadata asks: Basic or in the body). */
  readonly clientSecret?: string;
  /** Scopes to ask for besides those the server's challenge or metadata name. */
  readonly scopes?: readonly string[];
  /** The loopback redirect port, for an authorization server that registered one; default: any free port. */
  readonly callbackPort?: number;
  /** An https URL where this client's metadata document is published (used as client_id when the server supports it). */
  readonly clientMetadataUrl?: string;
}

export const OAUTH_SETTING_KEYS = ['clientId', 'clientSecret', 'scopes', 'callbackPort', 'clientMetadataUrl'] as const;
