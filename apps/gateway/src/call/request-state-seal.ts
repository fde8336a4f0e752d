import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

import type { InputRequired } from './input-required';

const FORMAT = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals the `requestState` a tool service hands a 2026 client in an MRTR round, so that the client can
 * neither read, forge nor alter it (the revision: servers MUST treat it as attacker-controlled). The state
 * leaves the gateway encrypted and authenticated (AES-256-GCM), bound to the tool that issued it, and is
 * opened when the client's retry brings it back: a state that does not open is refused before the call
 * reaches any tool service, and the service gets its own state back byte for byte.
 *
 * The key comes from `mcp.requestStateKey`; without one, each process draws its own at start, and then a
 * retry served by another replica (or after a restart) is refused: replicas share a configured key.
 */
export class RequestStateSeal {
  private constructor(private readonly key: Buffer) {}

  /** The AES key is derived from the configured secret (any text of at least 32 characters), never the secret itself. */
  static fromSecret(secret: string | undefined): RequestStateSeal {
    const material = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
    return new RequestStateSeal(Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'toolmesh request state v1', 32)));
  }

  seal(tool: string, state: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(tool, 'utf8'));
    const sealed = Buffer.concat([iv, cipher.update(state, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}${sealed.toString('base64url')}`;
  }

  /** An input request as the client gets it: its state, when it has one, sealed for this tool. */
  sealInput(tool: string, input: InputRequired): InputRequired {
    return input.requestState === undefined ? input : { ...input, requestState: this.seal(tool, input.requestState) };
  }

  /** The state as the tool service issued it; undefined when it was not sealed here for this tool, or was altered. */
  open(tool: string, sealed: string): string | undefined {
    if (!sealed.startsWith(FORMAT)) return undefined;
    const bytes = Buffer.from(sealed.slice(FORMAT.length), 'base64url');
    // Base64url decoding skips what is not Base64url: only a canonical encoding is this seal's own.
    if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== sealed.slice(FORMAT.length)) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(tool, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined; // the authentication tag does not match
    }
  }
}
