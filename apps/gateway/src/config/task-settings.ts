/** How long a poller waits between reads of a status URL: a service's Retry-After, within bounds. */
export interface PollBounds {
  /** Used when the service names no Retry-After (or one that does not parse). */
  readonly defaultMillis: number;
  /** A shorter Retry-After is raised to this: a service cannot make the gateway poll it in a loop. */
  readonly minMillis: number;
  /** A longer one is cut to this: a task's status is never older than this. */
  readonly maxMillis: number;
}

/** `mcp.tasks` (docs/configuration.md): how tasks are kept and their jobs polled. */
export interface TaskSettings {
  /** Whether the gateway serves tasks to clients (`tasks/*`, CreateTaskResult); off, a 202 is waited for within the call's deadline. */
  readonly enabled: boolean;
  /** A task's TTL when its caller asks for none (2026 clients never do). */
  readonly defaultTtlMillis: number;
  /** The longest TTL granted: a longer one asked for is cut to it. */
  readonly maxTtlMillis: number;
  /** The wait between reads of a job's status URL: its Retry-After within these bounds. */
  readonly poll: PollBounds;
  /** How long one read of a status URL may take. */
  readonly statusTimeoutMillis: number;
  /** Reads in a row that get no answer before a task fails. */
  readonly maxFailedPolls: number;
  /** Most tasks in one `tasks/list` page (2025-11-25). */
  readonly listPageSize: number;
  /** Most tasks one caller may have still working (anonymous callers share one count); a call past it is refused before its service is called. */
  readonly maxWorkingPerCaller: number;
}
