import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** What is kept of one server's sign-in: the client registration and the tokens, each stamped with its issuer by the SDK. */
export interface StoredCredentials {
  readonly clientInformation?: StoredOAuthClientInformation;
  readonly tokens?: StoredOAuthTokens;
  /** When the tokens were saved (ms since the epoch): with `expires_in`, when the access token expires. */
  readonly savedAt?: number;
  /** The scopes last asked for (configured, granted and challenged, as one union): a later sign-in asks for them again. */
  readonly scope?: string;
}

/**
 * `$XDG_CONFIG_HOME/toolmesh-agent` (else `~/.config/toolmesh-agent`): the user's, not the project's.
 * Project configuration files (`agent-cli.yaml`) are shared and committed; credentials never are.
 */
export function userConfigDirectory(env: NodeJS.ProcessEnv): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'toolmesh-agent');
}

/**
 * One file per server under `<config dir>/oauth/`, named by the server's name and a digest of its URL
 * (two projects may both have a server called "docs"; they never share tokens). The directory is 0700,
 * the file 0600, and every write goes to a temporary file renamed over the old one, so a reader sees
 * the old credentials or the new, never half of either. Nothing here logs, and no error message
 * carries a file's contents.
 */
export class CredentialStore {
  private readonly directory: string;

  constructor(configDirectory: string) {
    this.directory = path.join(configDirectory, 'oauth');
  }

  fileFor(serverName: string, url: URL): string {
    const digest = createHash('sha256').update(`${url.origin}${url.pathname}`).digest('hex').slice(0, 16);
    return path.join(this.directory, `${serverName}-${digest}.json`);
  }

  read(serverName: string, url: URL): StoredCredentials {
    let text: string;
    try {
      text = readFileSync(this.fileFor(serverName, url), 'utf8');
    } catch {
      return {};
    }
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null ? (parsed as StoredCredentials) : {};
    } catch {
      // A damaged file is as good as none: the next sign-in replaces it.
      return {};
    }
  }

  write(serverName: string, url: URL, credentials: StoredCredentials): void {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    // mkdir's mode only applies to a directory it creates (and is cut by the umask): made sure here.
    chmodSync(this.directory, 0o700);
    const file = this.fileFor(serverName, url);
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, JSON.stringify(credentials), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  }

  /** Removes the server's file; false when there was none. */
  remove(serverName: string, url: URL): boolean {
    const file = this.fileFor(serverName, url);
    if (!existsSync(file)) return false;
    rmSync(file, { force: true });
    return true;
  }
}
