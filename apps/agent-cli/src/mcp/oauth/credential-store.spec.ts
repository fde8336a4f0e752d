import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CredentialStore, userConfigDirectory } from './credential-store';

const URL_A = new URL('https://mcp.example.com/mcp');

describe('CredentialStore', () => {
  it('lives under $XDG_CONFIG_HOME when it is an absolute path, else ~/.config', () => {
    expect(userConfigDirectory({ XDG_CONFIG_HOME: '/x/config', HOME: '/home/u' })).toBe('/x/config/toolmesh-agent');
    expect(userConfigDirectory({ XDG_CONFIG_HOME: 'relative', HOME: '/home/u' })).toBe('/home/u/.config/toolmesh-agent');
    expect(userConfigDirectory({ HOME: '/home/u' })).toBe('/home/u/.config/toolmesh-agent');
  });

  it('keeps one file per server name and URL, 0600 in a 0700 directory, replaced whole', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'credentials-'));
    const store = new CredentialStore(root);
    store.write('docs', URL_A, { tokens: { access_token: 'a1', token_type: 'Bearer' } });
    store.write('docs', URL_A, { tokens: { access_token: 'a2', token_type: 'Bearer' } });
    store.write('docs', new URL('https://other.example.com/mcp'), { tokens: { access_token: 'b', token_type: 'Bearer' } });

    expect(store.read('docs', URL_A).tokens?.access_token).toBe('a2');
    expect(store.fileFor('docs', URL_A)).not.toBe(store.fileFor('docs', new URL('https://other.example.com/mcp')));
    const directory = path.join(root, 'oauth');
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(readdirSync(directory)).toHaveLength(2); // no temporary file left behind
    for (const file of readdirSync(directory)) expect(statSync(path.join(directory, file)).mode & 0o777).toBe(0o600);
  });

  it('reads a missing or damaged file as nothing stored, and removes a file once', () => {
    const store = new CredentialStore(mkdtempSync(path.join(tmpdir(), 'credentials-')));
    expect(store.read('docs', URL_A)).toEqual({});
    store.write('docs', URL_A, {});
    writeFileSync(store.fileFor('docs', URL_A), '{ not json');
    expect(store.read('docs', URL_A)).toEqual({});
    expect(store.remove('docs', URL_A)).toBe(true);
    expect(store.remove('docs', URL_A)).toBe(false);
  });
});
