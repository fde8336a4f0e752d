import { createHmac } from 'node:crypto';

import { compactDecrypt, CompactEncrypt } from 'jose';

import type { UserTokens } from './user-token-vault';
import type { VaultKey } from './vault-keys';

/** Why a stored entry was not opened; logged (with its bundle, never its subject), and the entry is then as good as absent. */
export type SealRefusal = 'unknown_key' | 'not_opened' | 'other_subject' | 'not_tokens';

export type Opened = { readonly tokens: UserTokens; readonly key: VaultKey } | { readonly refused: SealRefusal };

/**
 * Seals a subject's tokens for a bundle as a compact JWE (`dir`, A256GCM: authenticated encryption, jose;
 * ADR 0031) and opens them again. The protected header, which the cipher authenticates, names the key
 * (`kid`) and binds the entry to its subject and bundle (`ctx`: the entry's own keyed name), so a
 * ciphertext copied under another subject's name (or bundle's) opens to a refusal, not to tokens.
 */
export class TokenSeal {
  constructor(private readonly keys: readonly VaultKey[]) {}

  get newest(): VaultKey {
    return this.keys[0];
  }

  get ring(): readonly VaultKey[] {
    return this.keys;
  }

  /** The entry's name under `key`: a keyed hash of subject and bundle, the only form a store sees of them. */
  nameOf(subject: string, bundle: string, key: VaultKey = this.newest): string {
    return createHmac('sha256', key.naming)
      .update(JSON.stringify([subject, bundle]))
      .digest('base64url');
  }

  seal(subject: string, bundle: string, tokens: UserTokens): Promise<string> {
    const key = this.newest;
    const plaintext = new TextEncoder().encode(JSON.stringify(tokens));
    return new CompactEncrypt(plaintext)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: key.id, ctx: this.nameOf(subject, bundle, key) })
      .encrypt(key.sealing);
  }

  async open(sealed: string, subject: string, bundle: string): Promise<Opened> {
    let opened: Awaited<ReturnType<typeof compactDecrypt>>;
    let key: VaultKey | undefined;
    try {
      opened = await compactDecrypt(
        sealed,
        (header) => {
          key = this.keys.find((each) => each.id === header.kid);
          // jose refuses a missing key; which refusal it was is told by `key` below.
          return key?.sealing ?? new Uint8Array(0);
        },
        { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] },
      );
    } catch {
      return { refused: key === undefined ? 'unknown_key' : 'not_opened' };
    }
    if (key === undefined) return { refused: 'unknown_key' };
    if (opened.protectedHeader.ctx !== this.nameOf(subject, bundle, key)) return { refused: 'other_subject' };
    const tokens = parseTokens(new TextDecoder().decode(opened.plaintext));
    return tokens === undefined ? { refused: 'not_tokens' } : { tokens, key };
  }
}

function parseTokens(text: string): UserTokens | undefined {
  try {
    const value = JSON.parse(text) as Partial<UserTokens> | null;
    if (typeof value?.accessToken !== 'string') return undefined;
    const { accessToken, refreshToken, expiresAt, scope } = value;
    if (refreshToken !== undefined && typeof refreshToken !== 'string') return undefined;
    if (expiresAt !== undefined && typeof expiresAt !== 'number') return undefined;
    if (scope !== undefined && typeof scope !== 'string') return undefined;
    return {
      accessToken,
      ...(refreshToken !== undefined && { refreshToken }),
      ...(expiresAt !== undefined && { expiresAt }),
      ...(scope !== undefined && { scope }),
    };
  } catch {
    return undefined;
  }
}
