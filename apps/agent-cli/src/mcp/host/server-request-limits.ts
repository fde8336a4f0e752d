/**
 * How many requests of one kind (sampling, elicitation) one server may have the client work on at once,
 * and start per minute. Each costs the user something (a model call, a question), so a server cannot make
 * the client spend without bound; what is over either limit is refused at once, never queued.
 */
export interface ServerRequestLimits {
  readonly maxConcurrent: number;
  readonly perMinute: number;
  /** How long the agent waits for the user to finish a page a server asked them to open (URL elicitation). */
  readonly urlWaitMs: number;
}

/** What a server gets unless its entry's `serverRequests` says otherwise. */
export const DEFAULT_SERVER_REQUEST_LIMITS: ServerRequestLimits = { maxConcurrent: 2, perMinute: 30, urlWaitMs: 600_000 };

export const SERVER_REQUEST_LIMIT_KEYS = ['maxConcurrent', 'perMinute', 'urlWaitMs'];

const MINUTE_MS = 60_000;

/** One server's requests of one kind against its limits: each runs, or is refused with the reason. */
export class ServerRequestLimiter {
  private running = 0;
  /** When the requests of the last minute started, oldest first: never more than `perMinute` entries. */
  private readonly starts: number[] = [];

  constructor(
    private readonly description: string,
    private readonly limits: Pick<ServerRequestLimits, 'maxConcurrent' | 'perMinute'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `body`, or, over a limit, answers `refuse(reason)` without running it. */
  async run<T>(body: () => Promise<T>, refuse: (reason: string) => T): Promise<T> {
    const reason = this.refusal();
    if (reason) return refuse(reason);
    this.running += 1;
    this.starts.push(this.now());
    try {
      return await body();
    } finally {
      this.running -= 1;
    }
  }

  private refusal(): string | undefined {
    const { maxConcurrent, perMinute } = this.limits;
    if (this.running >= maxConcurrent)
      return `too many ${this.description} at once: at most ${maxConcurrent} are handled at a time (serverRequests.maxConcurrent)`;
    const since = this.now() - MINUTE_MS;
    while (this.starts.length > 0 && this.starts[0] <= since) this.starts.shift();
    if (this.starts.length >= perMinute)
      return `too many ${this.description}: at most ${perMinute} a minute are handled (serverRequests.perMinute)`;
    return undefined;
  }
}
