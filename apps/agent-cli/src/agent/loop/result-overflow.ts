import { closeSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { createOwnFile, makeOwnFolder, ownFileFailure } from '../own-folders';

/** Where a session's oversized results go, under the working directory: inside the workspace, so `Read` needs no question. */
const RESULT_OVERFLOW_DIRECTORY = path.join('.agent-cli', 'tool-results');

/** A result written whole: `shown` is its path as the model and the transcript get it (relative to the working directory). */
export type SavedResult = { readonly saved: true; readonly shown: string } | { readonly saved: false; readonly reason: string };

/**
 * The session's folder for tool results over `llm.maxToolResultChars`: each is written whole to a file
 * of its own, so the model can read the rest with `Read` and `Grep` instead of losing it. JSON is written
 * pretty-printed, so `Read`'s line paging reaches every part of it (a one-line 5 MB file would be cut at
 * its first 256 KiB). Files are numbered, never named after anything the model or a tool chose, never
 * overwritten, and never written through a symbolic link planted in the workspace (own-folders.ts).
 */
export class ResultOverflow {
  private count = 0;

  constructor(
    private readonly workingDirectory: string,
    /** The session's own folder, absolute. */
    readonly directory: string,
  ) {}

  /** `.agent-cli/tool-results/<time>-<pid>/`: one folder per session, sortable by time. */
  static forSession(workingDirectory: string, now = new Date()): ResultOverflow {
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    return new ResultOverflow(workingDirectory, path.join(workingDirectory, RESULT_OVERFLOW_DIRECTORY, `${stamp}-${process.pid}`));
  }

  save(text: string, json: unknown): SavedResult {
    this.count += 1;
    const file = path.join(this.directory, `result-${this.count}.${json === undefined ? 'txt' : 'json'}`);
    const body = json === undefined ? text : `${JSON.stringify(json, null, 2)}\n`;
    try {
      makeOwnFolder(this.workingDirectory, this.directory);
      const fd = createOwnFile(file, 0o600);
      try {
        writeFileSync(fd, body);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      return {
        saved: false,
        reason: ownFileFailure(error),
      };
    }
    return {
      saved: true,
      shown: path.relative(this.workingDirectory, file).split(path.sep).join('/'),
    };
  }
}
