import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The members of a stored sign-in that are secrets (the SDK's token and client-registration shapes). */
const SECRET_KEYS: ReadonlySet<string> = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret']);

/**
 * Every secret of every sign-in stored under `<config dir>/oauth/` (all servers, all projects), for a
 * transcript to redact: whatever a tool ran into (a Bash `cat` under --yes) never lands in a transcript
 * as a token. Files that cannot be read or parsed hold nothing the CLI could use either, and are skipped.
 */
export function storedSecrets(configDirectory: string): string[] {
  const directory = path.join(configDirectory, 'oauth');
  let files: string[];
  try {
    files = readdirSync(directory).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const secrets = new Set<string>();
  for (const name of files) {
    try {
      collect(JSON.parse(readFileSync(path.join(directory, name), 'utf8')), secrets);
    } catch {
      // A damaged file: the next sign-in replaces it.
    }
  }
  return [...secrets];
}

function collect(value: unknown, into: Set<string>): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, member] of Object.entries(value)) {
    if (SECRET_KEYS.has(key) && typeof member === 'string' && member.length >= 8) into.add(member);
    else collect(member, into);
  }
}
