import type { IncomingHttpHeaders } from 'node:http';

/** The headers the gateway forwards (docs/manifest-format.md, "The call"), the only ones a recorded call keeps. */
const RECORDED_HEADERS = [
  'guid',
  'x-request-id',
  'mcp-session-id',
  'employee-no',
  'virtual-employee-no',
  'x-caller-ip',
  'x-caller-host',
  'authorization',
  'content-type',
  'traceparent',
  'tracestate',
  'baggage',
  'idempotency-key',
  'mcp-request-state',
  // The verified identity, under the names config/examples/oauth.yaml gives auth.identityHeaders.
  'x-user-subject',
  'x-client-id',
] as const;

export interface RecordedCall {
  readonly tool: string;
  /** Lower-case names; headers the request did not carry are absent. */
  readonly headers: Partial<Record<(typeof RECORDED_HEADERS)[number], string>>;
  readonly body: unknown;
}

/**
 * The most recent tool calls, oldest first, for tests that run the service as a separate process and need
 * to see what the gateway actually sent. Bounded, so a long-running sample never grows without limit.
 */
export class CallLog {
  private readonly calls: RecordedCall[] = [];

  constructor(private readonly capacity: number) {}

  record(tool: string, headers: IncomingHttpHeaders, body: unknown): void {
    const kept: RecordedCall['headers'] = {};
    for (const name of RECORDED_HEADERS) {
      const value = headers[name];
      if (typeof value === 'string') kept[name] = value;
    }
    this.calls.push({ tool, headers: kept, body });
    if (this.calls.length > this.capacity) this.calls.shift();
  }

  list(): readonly RecordedCall[] {
    return [...this.calls];
  }

  clear(): void {
    this.calls.length = 0;
  }
}
