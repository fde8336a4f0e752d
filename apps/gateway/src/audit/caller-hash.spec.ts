import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { GatewayErrorCode } from '../errors/gateway-errors';
import { CallerHash } from './caller-hash';

const KEY = 'k'.repeat(32);

describe('CallerHash', () => {
  it("is HMAC-SHA256 of the subject under the operator's key, in hex, as `openssl dgst -sha256 -hmac` prints it", () => {
    const hash = CallerHash.fromSource({ env: 'AUDIT_KEY' }, { AUDIT_KEY: KEY });
    expect(hash.of('alice')).toBe(createHmac('sha256', KEY).update('alice').digest('hex'));
    expect(hash.of('alice')).toBe(hash.of('alice'));
    expect(hash.of('bob')).not.toBe(hash.of('alice'));
    expect(new CallerHash('another key, as long as the first one').of('alice')).not.toBe(hash.of('alice'));
  });

  it('reads a mounted key without its trailing newline', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'caller-hash-')), 'key');
    writeFileSync(file, `${KEY}\n`);
    expect(CallerHash.fromSource({ file }, {}).of('alice')).toBe(new CallerHash(KEY).of('alice'));
  });

  it.each([
    ['an unset variable', { env: 'AUDIT_KEY' }, {}, 'the environment variable AUDIT_KEY holds no key'],
    ['a short key', { env: 'AUDIT_KEY' }, { AUDIT_KEY: 'short' }, 'is 5 characters; use at least 32'],
    ['a missing file', { file: '/nonexistent/audit-key' }, {}, 'cannot read /nonexistent/audit-key (ENOENT)'],
  ])('refuses %s at start, saying how to make a key', (_, source, env, message) => {
    const start = () => CallerHash.fromSource(source as never, env as NodeJS.ProcessEnv);
    expect(start).toThrow(expect.objectContaining({ code: GatewayErrorCode.AuditUnavailable }));
    expect(start).toThrow(message);
    expect(start).toThrow('openssl rand -base64 32');
  });
});
