/** A change of the tool list seen by one replica: who saw it, and a digest of the list it saw. */
export interface CatalogueChange {
  readonly replica: string;
  readonly listDigest: string;
}

/**
 * A URL-mode elicitation completed for a subject, on one replica (issue 48): the digest of the subject,
 * never the subject itself, and the elicitation's id, for that subject's listening clients on every replica.
 */
export interface ElicitationCompletion {
  readonly replica: string;
  readonly subjectDigest: string;
  readonly elicitationId: string;
}

/**
 * A task's status changed, on the replica that wrote it (issue 47): its owner as the gateway keys callers
 * (a digest, never a subject) and its id, for that owner's listening clients on every replica, which read
 * the task itself from the task store. No status or result travels here.
 */
export interface TaskStatusChange {
  readonly replica: string;
  readonly owner: string;
  readonly taskId: string;
}

/**
 * Tells the other replicas when this one's tool list changed, and hears when theirs did (SPEC G21): how a
 * notification stream open on one replica learns of a change that another replica's refresh saw. An
 * elicitation's completion and a task's status change travel the same way, each on its own channel.
 */
export interface CatalogueChangeChannel {
  publish(change: CatalogueChange): void;
  /** `listener` is called with every change another replica publishes. */
  subscribe(listener: (change: CatalogueChange) => void): void;
  publishCompletion(completion: ElicitationCompletion): void;
  /** `listener` is called with every completion a replica publishes (this one's too: it checks `replica`). */
  subscribeCompletions(listener: (completion: ElicitationCompletion) => void): void;
  publishTaskStatus(change: TaskStatusChange): void;
  /** `listener` is called with every task status change a replica publishes (this one's too: it checks `replica`). */
  subscribeTaskStatus(listener: (change: TaskStatusChange) => void): void;
  close(): Promise<void>;
}
