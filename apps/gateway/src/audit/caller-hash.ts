import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

import type { CredentialSource } from '../config/gateway-config';
import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';

/** The shortest `audit.subjectKey` accepted: 32 characters, e.g. `openssl rand -base64 32` (44). */
const MIN_SUBJECT_KEY_LENGTH = 32;

/** Subjects whose hash is kept: a replica sees few callers, and the map is emptied whole when it fills. */
const MAX_CACHED_SUBJECTS = 4_096;

/**
 * The caller as the audit trail names it: HMAC-SHA256 of the verified subject under the operator's key,
 * in hex. An operator who knows a subject computes the same value (`openssl dgst -sha256 -hmac`, see
 * docs/gateway.md, "Audit trail") and finds its events; the trail never carries the subject itself, and
 * without the key nobody can test a guessed subject against it.
 */
export class CallerHash {
  private readonly cached = new Map<string, string>();

  constructor(private readonly key: string) {}

  /** The key from where `audit.subjectKey` says: read once at start; a missing or short one stops the start. */
  static fromSource(source: CredentialSource, env: NodeJS.ProcessEnv): CallerHash {
    const where = 'env' in source ? `the environment variable ${source.env}` : `the file ${source.file}`;
    const key = readKey(source, env);
    if (key === undefined) throw keyProblem(`audit.subjectKey: ${where} holds no key`);
    if (key.length < MIN_SUBJECT_KEY_LENGTH)
      throw keyProblem(`audit.subjectKey: the key in ${where} is ${key.length} characters; use at least ${MIN_SUBJECT_KEY_LENGTH}`);
    return new CallerHash(key);
  }

  of(subject: string): string {
    let hash = this.cached.get(subject);
    if (hash === undefined) {
      hash = createHmac('sha256', this.key).update(subject, 'utf8').digest('hex');
      if (this.cached.size >= MAX_CACHED_SUBJECTS) this.cached.clear();
      this.cached.set(subject, hash);
    }
    return hash;
  }
}

function readKey(source: CredentialSource, env: NodeJS.ProcessEnv): string | undefined {
  if ('env' in source) return env[source.env] || undefined;
  try {
    // A mounted secret usually ends with a newline nobody meant as part of the key.
    return readFileSync(source.file, 'utf8').replace(/\r?\n$/, '') || undefined;
  } catch (error) {
    throw keyProblem(`audit.subjectKey: cannot read ${source.file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function keyProblem(message: string): GatewayError {
  return new GatewayError(
    GatewayErrorCode.AuditUnavailable,
    `${message}; make one with \`openssl rand -base64 32\` (docs/gateway.md, "Audit trail")`,
  );
}
