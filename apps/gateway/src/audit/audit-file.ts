import { closeSync, createWriteStream, openSync, statfsSync, type WriteStream } from 'node:fs';
import path from 'node:path';

import type { Logger } from '@toolmesh/transport-http/server';

import { GatewayError, GatewayErrorCode } from '../errors/gateway-errors';
import { AuditDrops } from './audit-drops';

/** Lines wait at most this long to be written together: one write for a burst of calls, not one each. */
const FLUSH_MILLIS = 20;

/**
 * The audit trail's own JSON-lines file (`audit.file`), apart from the boundary logs. Opened at start, so
 * a path that cannot be appended to (a missing folder, no permission) or a full disk stops the start with
 * a clear error. Then nothing waits on it: lines are gathered for `FLUSH_MILLIS` and handed to the stream
 * together; what the stream has not written yet is bounded by `maxBufferedBytes`, past which a line is
 * dropped and counted, as it is after a write failed (a disk that filled up): the gateway goes on serving.
 */
export class AuditFile {
  private pending: string[] = [];
  private pendingBytes = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private failed: string | undefined;
  private readonly drops: AuditDrops;

  private constructor(
    private readonly stream: WriteStream,
    private readonly file: string,
    private readonly maxBufferedBytes: number,
    logger: Logger,
  ) {
    this.drops = new AuditDrops('file', 'audit.maxBufferedBytes', logger);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // Every later line is dropped and counted; the gateway serves on, and says so once.
      this.failed = error.code ?? error.name;
      logger.error('audit_write_failed', { file: this.file, error: this.failed });
    });
  }

  static open(file: string, maxBufferedBytes: number, logger: Logger): AuditFile {
    let fd: number;
    try {
      fd = openSync(file, 'a');
    } catch (error) {
      throw unavailable(`audit.file: cannot append to ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (diskFull(file)) {
      closeSync(fd);
      throw unavailable(`audit.file: the disk holding ${file} is full`);
    }
    return new AuditFile(createWriteStream(file, { fd, flags: 'a' }), file, maxBufferedBytes, logger);
  }

  /** Lines dropped since start: the buffer was full or the file failed. */
  get dropped(): number {
    return this.drops.total;
  }

  /** Adds one line (a JSON document without a line end); never waits, never throws. */
  write(line: string): void {
    if (this.failed !== undefined || this.stream.writableLength + this.pendingBytes + line.length >= this.maxBufferedBytes) {
      this.drops.count(this.failed ?? 'buffer_full');
      return;
    }
    this.pending.push(line);
    this.pendingBytes += line.length + 1;
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MILLIS).unref();
  }

  /** Writes what is gathered and closes the file (at shutdown); lines written after are dropped. */
  close(): Promise<void> {
    this.flush();
    this.failed ??= 'closed';
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }

  private flush(): void {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pending.length === 0 || this.failed !== undefined) return;
    this.stream.write(`${this.pending.join('\n')}\n`);
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/** Whether the file system holding `file` has no block left for an unprivileged writer. */
function diskFull(file: string): boolean {
  try {
    return statfsSync(path.dirname(path.resolve(file))).bavail === 0;
  } catch {
    return false; // no statfs here (some file systems): the first failed write says it instead
  }
}

function unavailable(message: string): GatewayError {
  return new GatewayError(
    GatewayErrorCode.AuditUnavailable,
    `${message}; audit is on (audit.enabled), so the gateway does not start without it`,
  );
}
