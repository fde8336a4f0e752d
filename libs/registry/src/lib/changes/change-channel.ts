/** A change of the tool list seen by one replica: who saw it, and a digest of the list it saw. */
export interface CatalogueChange {
  readonly replica: string;
  readonly listDigest: string;
}

/**
 * Tells the other replicas when this one's tool list changed, and hears when theirs did (SPEC G21): how a
 * notification stream open on one replica learns of a change that another replica's refresh saw.
 */
export interface CatalogueChangeChannel {
  publish(change: CatalogueChange): void;
  /** `listener` is called with every change another replica publishes. */
  subscribe(listener: (change: CatalogueChange) => void): void;
  close(): Promise<void>;
}
