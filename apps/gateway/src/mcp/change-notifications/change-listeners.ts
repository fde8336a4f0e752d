import type { EventStream } from '@toolmesh/transport-http/server';

/** One open stream that wants `notifications/tools/list_changed`: how to tell it, and how to end it. */
export interface ChangeListener {
  /** Sends the era's form of the notification (the 2026 one carries the subscription id). */
  toolsListChanged(): void;
  /** Ends the stream for shutdown (the 2026 era sends the listen result first). */
  close(): void;
}

/**
 * The open notification streams of this process, of both eras (SPEC G21). Nothing here is a session: a
 * stream is the one open response that carries it, and it is gone when that response ends. The bound keeps
 * a flood of idle listeners from holding every socket and file descriptor.
 */
export class ChangeListeners {
  private readonly open = new Set<ChangeListener>();

  constructor(readonly maxOpen: number) {}

  get size(): number {
    return this.open.size;
  }

  hasRoom(): boolean {
    return this.open.size < this.maxOpen;
  }

  /** Keeps `listener` while `stream` is open. */
  add(listener: ChangeListener, stream: EventStream): void {
    this.open.add(listener);
    stream.onClose(() => this.open.delete(listener));
  }

  toolsListChanged(): void {
    for (const listener of this.open) listener.toolsListChanged();
  }

  /** Shutdown: every stream is ended, so draining does not wait for clients that would never leave. */
  closeAll(): void {
    for (const listener of [...this.open]) listener.close();
  }
}
