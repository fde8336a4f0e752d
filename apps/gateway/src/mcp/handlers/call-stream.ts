import { LOGGING_LEVELS } from '@toolmesh/protocol';
import type { DispatchOutcome, EventStream } from '@toolmesh/transport-http/server';

import type { CallerStream, LogMessage, ProgressUpdate } from '../../upstreams/caller-stream';
import type { CallerRelay } from '../../upstreams/server-request-relay';
import type { HandlerResult } from './method-handler';

/** What a caller names its progress by: `_meta.progressToken` of its request, in both eras. */
export type ProgressToken = string | number;

/** The request's `progressToken`, when it asked for progress. */
export function progressTokenOf(params: Record<string, unknown>): ProgressToken | undefined {
  const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * What a caller wants of a call's log messages: those at or above `level`, or with none named every one the
 * server sends (a 2025 caller that never set a level gets what the server chooses to send).
 */
export interface CallLogging {
  readonly level: string | undefined;
}

/**
 * The answer of one forwarded `tools/call` (issues 28 and 44): JSON, unless something must reach the caller
 * before it, a progress notification it asked for (both eras), a log message at its level (both eras) or its
 * MCP server's request (a 2025 caller: StreamedCall); the first such message turns the answer into an event stream, which carries them in order
 * and, last, the call's response as the era writes it (`finish`).
 */
export class CallStream implements CallerStream {
  readonly progress: ((update: ProgressUpdate) => void) | undefined;
  readonly log: ((message: LogMessage) => void) | undefined;
  readonly logLevel: string | undefined;
  /** Set by the first message to the caller: the answer is an event stream from then on. */
  private opened = false;
  /** Told of the first message, by `firstOf`. */
  private onOpened: ((nothing: undefined) => void) | undefined;
  private stream: EventStream | undefined;
  /** The messages sent before the stream was open; made for the first (most calls send none). */
  private backlog: string[] | undefined;
  private readonly closeListeners: Array<() => void> = [];
  /** Set by `cancel`, or the stream closed before the answer: the caller wants nothing more of this call. */
  private gone = false;
  /** Set once the answer is written: the close that follows is its end. */
  private answered = false;
  /** Told once the call's answer settles, sent or not (the calls in flight: calls-in-flight.ts). */
  private onSettled: (() => void) | undefined;

  constructor(
    private readonly finish: (answer: HandlerResult) => string,
    progressToken: ProgressToken | undefined,
    logging: CallLogging | undefined,
  ) {
    if (progressToken !== undefined) this.progress = (update) => this.push(progressText(progressToken, update));
    if (logging !== undefined) {
      const least = logging.level === undefined ? 0 : LOGGING_LEVELS.indexOf(logging.level);
      this.logLevel = logging.level;
      this.log = (message) => {
        if (LOGGING_LEVELS.indexOf(message.level) >= least) this.push(logText(message));
      };
    }
  }

  get cancelled(): boolean {
    return this.gone;
  }

  /** Where the call's MCP server may ask the caller for input on this stream: only a 2025 caller's (StreamedCall). */
  get relay(): CallerRelay | undefined {
    return undefined;
  }

  /**
   * The call's answer when it comes before anything is sent to the caller, else undefined once something is:
   * the answer is then to be `streamed`. One promise, where a race of the two cost three a call (ADR 0005).
   */
  firstOf(answer: Promise<HandlerResult>): Promise<HandlerResult | undefined> {
    const settled = this.onSettled;
    if (settled !== undefined) answer.then(settled, settled);
    return new Promise((resolve, reject) => {
      if (this.opened) return resolve(undefined);
      // The promise's own resolve, not a closure around it: with a closure made here, a 2025 call promoted
      // 950 bytes to the old generation instead of 200 (tools/bench/gateway-gc), for no reason V8 tells.
      this.onOpened = resolve;
      answer.then(resolve, reject);
    });
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** `listener` is told once the call's answer settles; given before `firstOf`. */
  whenSettled(listener: () => void): void {
    this.onSettled = listener;
  }

  /**
   * The caller cancelled the call (a 2025 caller's `notifications/cancelled`, issue 44): whoever follows it
   * is told as of a hang-up, and its answer is never sent: the stream, opened now if it was not yet, ends
   * without it (the revisions: no response to a cancelled request).
   */
  cancel(): void {
    if (this.gone) return;
    this.gone = true;
    for (const listener of this.closeListeners.splice(0)) listener();
    if (this.stream !== undefined) this.stream.end();
    else this.open();
  }

  /** The event stream answer, ended with the call's own response once `answer` settles. */
  streamed(answer: Promise<HandlerResult>): DispatchOutcome {
    return {
      open: (stream) => {
        this.stream = stream;
        stream.onClose(() => {
          if (!this.answered) this.gone = true;
          this.closed();
          for (const listener of this.closeListeners.splice(0)) listener();
        });
        if (this.gone) return stream.end();
        for (const json of this.backlog?.splice(0) ?? []) stream.send(json);
        void answer.then((result) => {
          if (this.gone) return;
          this.answered = true;
          this.closeListeners.length = 0; // the call is over: the close that follows is its end, not a hang-up
          stream.send(this.finish(result));
          stream.end();
        });
      },
    };
  }

  /** Sends one message to the caller before the call's answer, which is an event stream from then on. */
  protected push(json: string): void {
    if (this.gone) return;
    this.open();
    if (this.stream === undefined) (this.backlog ??= []).push(json);
    else this.stream.send(json);
  }

  /** The answer is an event stream from now on: `firstOf` resolves without it. */
  private open(): void {
    if (this.opened) return;
    this.opened = true;
    this.onOpened?.(undefined);
  }

  /** The stream has closed (ended, or the caller left): what waited on it is let go. */
  protected closed(): void {
    // Nothing waits here: a 2025 caller's stream lets its relayed requests go (StreamedCall).
  }
}

/** A progress notification under the caller's own token (the server saw only the gateway's). */
function progressText(progressToken: ProgressToken, { progress, total, message }: ProgressUpdate): string {
  return JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress, total, message } });
}

/** A log message as the server sent it: its level, its logger and its data, nothing of ours. */
function logText({ level, logger, data }: LogMessage): string {
  return JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level, logger, data } });
}
