import type { ElicitResult, UrlElicitationHandlers } from '@toolmesh/mcp-client';
import { printable } from '@toolmesh/protocol';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { isLoopbackHost } from '../oauth/auth-fetch';
import type { FormTerminal } from './client-features';

/** What a server sends to have the user open a page: `elicitationId` on 2025-11-25 only (2026-07-28 has none). */
export interface UrlRequest {
  readonly message: string;
  readonly url: string;
  readonly elicitationId?: string;
}

/** Where the user is taken to a page, and how long the agent waits for them to finish it. */
export interface UrlVisitSettings {
  /** The person: asked before a URL is opened, and for their word that the page is done. Absent: printed only. */
  readonly terminal?: FormTerminal;
  /** Where a URL is shown without a terminal (stderr). */
  readonly print: (text: string) => void;
  /** Opens a URL in the user's browser; absent (no terminal, --json): the URL is printed only. */
  readonly browser?: { open(url: URL): Promise<void> };
  /** `serverRequests.urlWaitMs` of the server. */
  readonly waitMs: number;
  /** Runs a visit after every earlier question is answered (two servers never share the prompt). */
  readonly oneAtATime: <T>(visit: () => Promise<T>) => Promise<T>;
}

type Visit = 'declined' | 'opened' | 'printed' | 'done';

const YES = /^\s*y(es)?\s*$/i;

/**
 * A server's URL-mode elicitations (2025-11-25 `-32042` and `elicitation/create`; 2026-07-28 input
 * requests) for one server. The URL is shown in full with its host on a line of its own (the spec's
 * "highlight the domain"), opened only after the user said yes at the terminal and never fetched by the
 * agent; a URL that is not https (plain http only to this machine) is refused, since the page is where a
 * user types credentials. Where the agent must know that the page is done (before retrying a `-32042`
 * call, or before answering a 2026-07-28 input request, whose retry is the server's only news), it waits
 * for the server's `notifications/elicitation/complete` (2025-11-25) or the user's Enter, up to `waitMs`.
 */
export class UrlElicitations implements UrlElicitationHandlers {
  /** The visits waiting for the server's word, by elicitationId. */
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly server: string,
    private readonly settings: UrlVisitSettings,
  ) {}

  completed(elicitationId: string): void {
    this.waiting.get(elicitationId)?.();
  }

  /** A `-32042`: each URL visited and finished, or the call fails saying why. */
  async required(elicitations: readonly UrlRequest[], signal?: AbortSignal): Promise<void> {
    for (const elicitation of elicitations) {
      const visit = await this.visit(elicitation, true, signal);
      if (visit === 'declined') throw this.unfinished(elicitation, 'the user declined to open it');
    }
  }

  /**
   * An `elicitation/create` in URL mode. With an elicitationId (2025-11-25) `accept` means the user agreed
   * to go there, and the server follows the rest; without one (2026-07-28) it is sent once the page is done.
   */
  async requested(request: UrlRequest, signal?: AbortSignal): Promise<ElicitResult> {
    const visit = await this.visit(request, request.elicitationId === undefined, signal);
    return visit === 'declined' || visit === 'printed' ? { action: 'decline' } : { action: 'accept' };
  }

  private visit(request: UrlRequest, untilDone: boolean, signal?: AbortSignal): Promise<Visit> {
    const url = this.checked(request.url);
    // Listened for from the start: a quick browser may finish before the user is asked to press Enter.
    const completion = request.elicitationId === undefined ? undefined : this.completionOf(request.elicitationId);
    return this.settings
      .oneAtATime(async () => {
        const { terminal, browser } = this.settings;
        const shown = this.shown(request, url);
        if (!terminal) {
          this.settings.print(shown);
          if (!untilDone) return 'printed';
        } else {
          terminal.show(shown);
          if (browser) {
            const answer = await terminal.ask('Open it in your browser? [y/N] ', signal).catch(() => '');
            if (!YES.test(answer)) return 'declined';
            await browser.open(url);
          }
          if (!untilDone) return 'opened';
        }
        return this.untilDone(request, completion?.done, signal);
      })
      .finally(() => completion?.stop());
  }

  /** The server's completion, the user's Enter, or the end of `waitMs`, whichever comes first. */
  private async untilDone(request: UrlRequest, completion: Promise<void> | undefined, signal?: AbortSignal): Promise<Visit> {
    const { terminal, waitMs } = this.settings;
    // An abort that came while the user was asked is not an event any more: said here.
    if (signal?.aborted) throw signal.reason;
    if (!terminal && !completion)
      throw this.unfinished(request, 'there is no terminal to say when it is done: open it, then call the tool again');
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), waitMs);
    const ended = signal ? AbortSignal.any([stop.signal, signal]) : stop.signal;
    try {
      const outcomes: Promise<Visit | 'cancelled' | 'timeout'>[] = [
        new Promise((resolve) => ended.addEventListener('abort', () => resolve(signal?.aborted ? 'cancelled' : 'timeout'), { once: true })),
      ];
      if (completion) outcomes.push(completion.then(() => 'done'));
      if (terminal)
        outcomes.push(
          terminal
            .ask(`Press Enter once you are done there${completion ? ' (or wait: the server will say so)' : ''} `, ended)
            // Ctrl-C / Ctrl-D at the question; our own abort settles the race first.
            .then(
              () => 'done',
              () => 'declined',
            ),
        );
      const outcome = await Promise.race(outcomes);
      if (outcome === 'timeout')
        throw this.unfinished(request, `it was not done within serverRequests.urlWaitMs (${waitMs} ms); open it, then call the tool again`);
      if (outcome === 'cancelled') throw signal?.reason ?? new Error('cancelled');
      return outcome;
    } finally {
      clearTimeout(timer);
      // Ends the Enter question when the server's word came first.
      stop.abort();
    }
  }

  private completionOf(elicitationId: string): { readonly done: Promise<void>; stop(): void } {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    this.waiting.set(elicitationId, resolve);
    return { done, stop: () => this.waiting.delete(elicitationId) };
  }

  /** The URL, when it may be shown as one: https, or http to this machine. */
  private checked(text: string): URL {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)))) return url;
    throw new AgentError(
      AgentErrorCode.UrlElicitationRefused,
      `MCP server "${this.server}" asked the user to open ${JSON.stringify(printable(text, 200))}; refused, not opened: ` +
        'a page a server sends the user to must be https (plain http only to this machine: 127.0.0.1, ::1, localhost)',
    );
  }

  /** The message, then the host alone and the full URL, so a look-alike host is seen before the link. */
  private shown(request: UrlRequest, url: URL): string {
    const lookalike = url.hostname.split('.').some((label) => label.startsWith('xn--'))
      ? `  (the host name is internationalised, ${url.hostname}: check it is the site you expect)\n`
      : '';
    return `\nMCP server "${this.server}" asks you to open a page: ${printable(request.message, 300)}\n  Open ${url.host} to continue: ${url.href}\n${lookalike}`;
  }

  private unfinished(request: UrlRequest, why: string): AgentError {
    const host = URL.canParse(request.url) ? new URL(request.url).host : request.url;
    return new AgentError(
      AgentErrorCode.UrlElicitationUnfinished,
      `MCP server "${this.server}" needs the user to open ${printable(host, 100)} first: ${why}`,
    );
  }
}
