/** A user's tokens at an outside authorization server, for one bundle. */
export interface UserTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds; absent when the server gave no expiry. */
  expiresAt?: number;
  scope?: string;
}
/** Obtains fresh tokens from a refresh token at the outside server's token endpoint (consent/ provides it). */
export type RefreshUserTokens = (bundle: string, refreshToken: string) => Promise<UserTokens>;
export interface UserTokenVault {
  /** The subject's usable tokens for the bundle, refreshed first (once, shared by concurrent calls) when
   *  expired or about to; undefined when there are none or the refresh was refused (consent needed). */
  usable(subject: string, bundle: string): Promise<UserTokens | undefined>;
  store(subject: string, bundle: string, tokens: UserTokens): Promise<void>;
  /** Forgets the subject's tokens for one bundle, or for all bundles; answers how many were removed. */
  revoke(subject: string, bundle?: string): Promise<number>;
}
