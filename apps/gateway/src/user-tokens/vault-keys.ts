import { hkdfSync } from 'node:crypto';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';

/** The shortest key line accepted: 32 characters, e.g. `openssl rand -base64 32` (44). */
const MIN_KEY_LENGTH = 32;

/** One key of the vault's ring, with the two keys derived from it (never the configured text itself). */
export interface VaultKey {
  /** Names the key in a sealed entry's `kid`: derived from it, so a key file's lines carry no id to get wrong. */
  readonly id: string;
  /** The JWE content key (`dir`, A256GCM). */
  readonly sealing: Uint8Array;
  /** Keys the hash that names an entry in the store, so no store key carries a subject in clear. */
  readonly naming: Buffer;
}

const derive = (material: string, purpose: string, bytes: number) =>
  Buffer.from(hkdfSync('sha256', Buffer.from(material, 'utf8'), Buffer.alloc(0), `toolmesh user-token vault ${purpose}`, bytes));

/**
 * The vault's key ring from the text of `consent.vaultKey` (a mounted file or a variable): one key a line,
 * newest first; blank lines and `#` comments are skipped. The newest seals, every one opens, and an entry
 * sealed with an older key is sealed again with the newest when read (docs/adr/0031-user-token-vault.md).
 */
export function parseVaultKeys(text: string, source: string): VaultKey[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const fix = `one key a line, newest first, each of at least ${MIN_KEY_LENGTH} characters (e.g. openssl rand -base64 32)`;
  if (lines.length === 0) throw keyInvalid(`${source} holds no key: write ${fix}`);
  const short = lines.findIndex((line) => line.length < MIN_KEY_LENGTH);
  if (short >= 0) throw keyInvalid(`${source}: key ${short + 1} is shorter than ${MIN_KEY_LENGTH} characters; write ${fix}`);
  const keys = lines.map((line) => ({
    id: derive(line, 'key id', 9).toString('base64url'),
    sealing: new Uint8Array(derive(line, 'sealing', 32)),
    naming: derive(line, 'naming', 32),
  }));
  if (new Set(keys.map((key) => key.id)).size !== keys.length) throw keyInvalid(`${source} holds the same key twice: keep one`);
  return keys;
}

function keyInvalid(message: string): GatewayError {
  return new GatewayError(GatewayErrorCode.VaultKeyInvalid, `consent.vaultKey: ${message}`);
}
