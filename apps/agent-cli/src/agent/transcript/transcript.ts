import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';

import { createOwnFile, makeOwnFolder, ownFileFailure } from '../own-folders';
import type { TranscriptEntry } from './transcript-entry';

/** Where `run` and `chat` write their transcript when `--transcript` is not given, relative to the working directory. */
const DEFAULT_TRANSCRIPT_DIRECTORY = path.join('.agent-cli', 'transcripts');

/**
 * A JSONL transcript: one JSON object per line, each with `ts` (ISO time), `turn` (the model turn it
 * belongs to; 0 before the first) and `type`. Lines are written synchronously, in order, as things
 * happen, so a crash or Ctrl-C loses nothing already done. A transcript that cannot be written is a
 * warning, once, never the end of the session. Every occurrence of a `secret` (the CLI's stored tokens)
 * in a line is written as `[redacted]`.
 */
export class Transcript {
  private turn = 0;
  private fd: number | undefined;
  private failed = false;

  constructor(
    readonly file: string,
    private readonly warn: (message: string) => void,
    private readonly secrets: readonly string[] = [],
    /** Given for the default file (the working directory): its folders are the CLI's own, so no link planted there is followed. */
    ownUnder?: string,
  ) {
    try {
      if (ownUnder === undefined) {
        mkdirSync(path.dirname(file), { recursive: true });
        this.fd = openSync(file, 'a');
      } else {
        makeOwnFolder(ownUnder, path.dirname(file));
        this.fd = createOwnFile(file, 0o600);
      }
    } catch (error) {
      this.fail(error);
    }
  }

  /** Later entries belong to this model turn. */
  startTurn(turn: number): void {
    this.turn = turn;
  }

  record(entry: TranscriptEntry): void {
    if (this.fd === undefined) return;
    try {
      let line = JSON.stringify({ ts: new Date().toISOString(), turn: this.turn, ...entry });
      for (const secret of this.secrets) line = line.split(secret).join('[redacted]');
      writeSync(this.fd, `${line}\n`);
    } catch (error) {
      this.fail(error);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      closeSync(fd);
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Already failing: the one warning below says so.
      }
    }
    this.fd = undefined;
    if (this.failed) return;
    this.failed = true;
    const why = ownFileFailure(error);
    this.warn(`the transcript ${this.file} cannot be written (${why}); the session goes on without it`);
  }
}

/** `.agent-cli/transcripts/<time>-<pid>.jsonl`: sortable by time, unique per process. */
export function defaultTranscriptFile(workingDirectory: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return path.join(workingDirectory, DEFAULT_TRANSCRIPT_DIRECTORY, `${stamp}-${process.pid}.jsonl`);
}
