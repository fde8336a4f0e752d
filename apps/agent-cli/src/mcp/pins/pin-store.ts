import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { CanonicalDefinition } from '@toolmesh/protocol';

import type { McpServerConfig } from '../server-config';

/** One approved tool: its hash, and the definition itself, so that a later change can be shown as a diff. */
export interface ToolPin {
  readonly hash: string;
  readonly definition: CanonicalDefinition;
}

/** A server's pins by its own tool name. */
export type ServerPins = Record<string, ToolPin>;

/**
 * The definitions the user approved, one file per server under `<user config dir>/tool-pins/`, kept like
 * the OAuth credentials (credential-store.ts): the user's, never the project's (a project file could
 * approve for the user), the directory 0700, each file 0600, written to a temporary file renamed over the
 * old one. A file is named by the server's name and a digest of what it runs or where it is, so two
 * projects' servers of one name never share pins.
 */
export class PinStore {
  private readonly directory: string;

  constructor(configDirectory: string) {
    this.directory = path.join(configDirectory, 'tool-pins');
  }

  read(server: McpServerConfig): ServerPins {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.fileFor(server), 'utf8'));
      const tools = typeof parsed === 'object' && parsed !== null ? (parsed as { tools?: unknown }).tools : undefined;
      return typeof tools === 'object' && tools !== null ? { ...(tools as ServerPins) } : {};
    } catch {
      // None yet, or damaged: every tool is then seen for the first time and pinned as it is now.
      return {};
    }
  }

  write(server: McpServerConfig, pins: ServerPins): void {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    chmodSync(this.directory, 0o700);
    const file = this.fileFor(server);
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ server: server.name, tools: pins }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  }

  fileFor(server: McpServerConfig): string {
    const where =
      server.transport === 'stdio' ? JSON.stringify([server.command, ...server.args]) : `${server.url.origin}${server.url.pathname}`;
    const digest = createHash('sha256').update(where).digest('hex').slice(0, 16);
    return path.join(this.directory, `${server.name}-${digest}.json`);
  }
}
