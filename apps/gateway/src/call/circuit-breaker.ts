export interface CircuitBreakerSettings {
  /** Failures in a row that open the circuit. */
  readonly failureThreshold: number;
  /** How long an open circuit refuses before it lets one trial through (half-open). */
  readonly coolDownMillis: number;
}

/**
 * A circuit breaker of one dependency of calls, an MCP server (issue 28) or the rate limits' Redis (issue
 * 43): so a dead or black-holed peer costs a call one fast refusal (or fallback), not a timeout each. Closed, every request goes; `failureThreshold` failures in a row open it;
 * open, every request is refused until `coolDownMillis` have passed; then one trial goes (half-open),
 * whose success closes it and whose failure opens it for another cool-down. Small on purpose: no timers,
 * no window, only counts and the clock, read when a request asks.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | undefined;
  private trialRunning = false;

  constructor(
    private readonly settings: CircuitBreakerSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === undefined) return 'closed';
    return this.trialRunning || this.now() - this.openedAt >= this.settings.coolDownMillis ? 'half-open' : 'open';
  }

  /** Milliseconds until an open circuit lets a trial through; 0 when a request may go now. */
  get retryInMillis(): number {
    if (this.openedAt === undefined) return 0;
    return Math.max(0, Math.ceil(this.openedAt + this.settings.coolDownMillis - this.now()));
  }

  /** May a request go now? Half-open, only the one trial may, until it ends. */
  admit(): boolean {
    if (this.openedAt === undefined) return true;
    if (this.trialRunning || this.now() - this.openedAt < this.settings.coolDownMillis) return false;
    this.trialRunning = true;
    return true;
  }

  succeeded(): void {
    this.failures = 0;
    this.openedAt = undefined;
    this.trialRunning = false;
  }

  failed(): void {
    this.failures += 1;
    if (this.trialRunning || this.failures >= this.settings.failureThreshold) this.openedAt = this.now();
    this.trialRunning = false;
  }
}
