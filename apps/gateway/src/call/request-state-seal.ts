import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';

import type { InputRequired } from './input-required';

const FORMAT = 'v2.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * What a sealed state is bound to: what was asked for (`target`: a tool's name, or a prompt's get or a
 * resource's read with its name or URI), who asked (`principal`, an opaque caller identity) and with what
 * (`request`, the arguments as sent). The retry of an MRTR round repeats all three.
 */
export interface StateBinding {
  readonly target: string;
  readonly principal: string;
  readonly request: string;
}

/** Why a returned state was refused; each is said to the client, which then calls the tool afresh. */
export type StateRefusal = 'not_sealed_here' | 'expired' | 'other_caller' | 'other_request';

export type OpenedState = { readonly state: string } | { readonly refused: StateRefusal };

/** What travels inside the encryption besides the state: digests only, so the client learns nothing of either. */
interface Envelope {
  readonly expires: number;
  readonly principal: string;
  readonly request: string;
  readonly state: string;
}

const digest = (text: string) => hash('sha256', text, 'base64url');

/**
 * Seals the `requestState` a tool service or MCP server hands a 2026 client in an MRTR round, so that
 * the client can neither read, forge nor alter it, nor use it later or as someone else (the revision:
 * servers MUST treat it as attacker-controlled, and SHOULD bind it to the authenticated principal, a short
 * expiry and the originating request). The state leaves the gateway encrypted and authenticated
 * (AES-256-GCM, the target as associated data) with its expiry and the digests of its caller and request
 * inside, and is opened when the client's retry brings it back: a state that does not open, has expired,
 * or comes from another caller or with other arguments is refused before the call reaches any tool
 * service, and the service gets its own state back byte for byte.
 *
 * The key comes from `mcp.requestStateKey`; without one, each process draws its own at start, and then a
 * retry served by another replica (or after a restart) is refused: replicas share a configured key.
 */
export class RequestStateSeal {
  private constructor(
    private readonly key: Buffer,
    private readonly ttlMillis: number,
    private readonly now: () => number,
  ) {}

  /** The AES key is derived from the configured secret (any text of at least 32 characters), never the secret itself. */
  static fromSecret(secret: string | undefined, ttlSeconds: number, now: () => number = Date.now): RequestStateSeal {
    const material = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
    const key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), 'toolmesh request state v2', 32));
    return new RequestStateSeal(key, ttlSeconds * 1000, now);
  }

  seal(binding: StateBinding, state: string): string {
    const envelope: Envelope = {
      expires: this.now() + this.ttlMillis,
      principal: digest(binding.principal),
      request: digest(binding.request),
      state,
    };
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(binding.target, 'utf8'));
    const sealed = Buffer.concat([iv, cipher.update(JSON.stringify(envelope), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}${sealed.toString('base64url')}`;
  }

  /** An input request as the client gets it: its state, when it has one, sealed for this call. */
  sealInput(binding: StateBinding, input: InputRequired): InputRequired {
    return input.requestState === undefined ? input : { ...input, requestState: this.seal(binding, input.requestState) };
  }

  /** The state as the tool service issued it, or why it is refused. */
  open(binding: StateBinding, sealed: string): OpenedState {
    const envelope = this.decrypt(binding.target, sealed);
    if (envelope === undefined) return { refused: 'not_sealed_here' };
    if (this.now() > envelope.expires) return { refused: 'expired' };
    if (envelope.principal !== digest(binding.principal)) return { refused: 'other_caller' };
    if (envelope.request !== digest(binding.request)) return { refused: 'other_request' };
    return { state: envelope.state };
  }

  /** The envelope; undefined when it was not sealed here for this target, or was altered. */
  private decrypt(target: string, sealed: string): Envelope | undefined {
    if (!sealed.startsWith(FORMAT)) return undefined;
    const bytes = Buffer.from(sealed.slice(FORMAT.length), 'base64url');
    // Base64url decoding skips what is not Base64url: only a canonical encoding is this seal's own.
    if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== sealed.slice(FORMAT.length)) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(target, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let plain: string;
    try {
      plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined; // the authentication tag does not match
    }
    return JSON.parse(plain) as Envelope; // authenticated: only this class wrote it
  }
}
