import type { EventStream } from '@toolmesh/transport-http/server';

/** One open stream that wants `notifications/tools/list_changed` or `resources/list_changed`: how to tell it, and how to end it. */
export interface ChangeListener {
  /** Sends the era's form of the notification (the 2026 one carries the subscription id). */
  toolsListChanged(): void;
  /** The same for the resources list: the gateway's own skills, or an MCP server's resources, changed (issue 49). */
  resourcesListChanged(): void;
  /** Ends the stream for shutdown or at the end of its lifetime (the 2026 era sends the listen result first). */
  close(): void;
  /**
   * A 2025 stream of a verified caller (issue 48): the digest of its subject, and how it is sent
   * `notifications/elicitation/complete`. A 2026 stream has none: that revision tells no completion.
   */
  readonly elicitations?: { readonly subjectDigest: string; completed(elicitationId: string): void };
  /** The stream's caller's tasks (issue 47), where tasks are served: how a status change of one is told. */
  readonly tasks?: TaskStatusListener;
}

/** How a stream hears of its caller's tasks: the caller as tasks are owned (`taskOwner`), and what a change of one sends. */
export interface TaskStatusListener {
  readonly owner: string;
  /** Reads the task and sends the era's status notification, if the stream wants that task's. */
  statusChanged(taskId: string): void;
}

/** The bounds of `mcp.notifications` (docs/configuration.md). */
export interface ChangeListenerLimits {
  /** Open streams of this process. */
  readonly maxOpenStreams: number;
  /** Open streams of one client (its remote address), so that one client cannot hold them all. */
  readonly maxStreamsPerClient: number;
  /** How long a stream stays open before it is ended; the client opens another. */
  readonly maxStreamLifetimeMillis: number;
}

/** Why a stream cannot be opened now, for the refusal's message; undefined when it can. */
export type NoRoom = 'replica' | 'client' | undefined;

/**
 * The open notification streams of this process, of both eras (SPEC G21). Nothing here is a session: a
 * stream is the one open response that carries it, and it is gone when that response ends. The bounds
 * keep a flood of idle listeners, from one client or many, from holding every socket and file descriptor,
 * and the lifetime keeps a stream from being held for ever.
 */
export class ChangeListeners {
  private readonly open = new Set<ChangeListener>();
  private readonly perClient = new Map<string, number>();

  constructor(readonly limits: ChangeListenerLimits) {}

  get size(): number {
    return this.open.size;
  }

  noRoomFor(client: string): NoRoom {
    if (this.open.size >= this.limits.maxOpenStreams) return 'replica';
    return (this.perClient.get(client) ?? 0) >= this.limits.maxStreamsPerClient ? 'client' : undefined;
  }

  /** Keeps `listener` while `stream` is open, and ends it when its lifetime is over. */
  add(listener: ChangeListener, stream: EventStream, client: string): void {
    this.open.add(listener);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    const lifetime = setTimeout(() => listener.close(), this.limits.maxStreamLifetimeMillis).unref();
    stream.onClose(() => {
      clearTimeout(lifetime);
      this.open.delete(listener);
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left === 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
    });
  }

  toolsListChanged(): void {
    for (const listener of this.open) listener.toolsListChanged();
  }

  resourcesListChanged(): void {
    for (const listener of this.open) listener.resourcesListChanged();
  }

  /** A URL-mode elicitation of the subject (`subjectDigest`) completed: its streams on this replica are told. */
  elicitationCompleted(subjectDigest: string, elicitationId: string): void {
    for (const { elicitations } of this.open) if (elicitations?.subjectDigest === subjectDigest) elicitations.completed(elicitationId);
  }

  /** A task of `owner` changed its status: that owner's streams on this replica are told. */
  taskStatusChanged(owner: string, taskId: string): void {
    for (const { tasks } of this.open) if (tasks?.owner === owner) tasks.statusChanged(taskId);
  }

  /** Shutdown: every stream is ended, so draining does not wait for clients that would never leave. */
  closeAll(): void {
    for (const listener of [...this.open]) listener.close();
  }
}

/** What a refused stream's client is told. */
export function noRoomMessage(noRoom: Exclude<NoRoom, undefined>, limits: ChangeListenerLimits): string {
  return noRoom === 'replica'
    ? `too many open notification streams on this replica (${limits.maxOpenStreams}); retry later`
    : `this client already has ${limits.maxStreamsPerClient} open notification streams, its limit; close one first`;
}
