import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { ElicitResult, ServerRequestHandlers } from '@toolmesh/mcp-client';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { type AskLine, fillForm } from './elicitation-form';
import { answerSampling, type SamplingGate, type SamplingModel } from './sampling';
import { ServerRequestLimiter, type ServerRequestLimits } from './server-request-limits';
import { UrlElicitations, type UrlVisitSettings } from './url-elicitation';

/** The person at the terminal, for forms: a question at a time, and lines shown on stderr. */
export interface FormTerminal {
  readonly ask: AskLine;
  show(text: string): void;
}

export interface ClientFeatureOptions {
  /** The directories offered to a server as its roots; none: the roots capability is not declared to it. */
  readonly rootsFor: (server: string) => readonly string[];
  /** The configured LLM (closed with the features), or why there is none: then sampling is refused, saying so. */
  readonly model: (SamplingModel & { close(): Promise<void> }) | { readonly unavailable: string };
  readonly samplingGate: SamplingGate;
  /** Without a terminal every elicitation is declined. */
  readonly terminal?: FormTerminal;
  readonly warn: (message: string) => void;
  /** Each server's limits on the sampling and the elicitation requests it may have in hand at once and per minute. */
  readonly limitsFor: (server: string) => ServerRequestLimits;
  /**
   * Where URL-mode elicitations are printed without a terminal, and the browser that opens them on one
   * (absent with --json); without this, URL mode is not declared. `close` ends what the browser started.
   */
  readonly urlElicitation?: Pick<UrlVisitSettings, 'print'> & { readonly browser?: UrlVisitSettings['browser'] & { close(): void } };
}

/**
 * The MCP client features the agent CLI offers its servers (SPEC A16): sampling through the configured
 * LLM behind the gate, elicitation as a form on the terminal (declined without one; `--yes` never
 * answers a form) or as a page to open (SPEC A25, url-elicitation.ts), and the roots the user chose for
 * the server (none: no roots capability). Each server gets handlers that know its name; whatever asks the person goes one at a time, so two servers never
 * share the prompt at once.
 * Sampling and elicitation requests beyond the server's limits are refused before anything is spent: a
 * sampling request with the spec's refusal (JSON-RPC -1 and the reason), a form declined with a warning.
 */
export class ClientFeatures {
  private turn: Promise<unknown> = Promise.resolve();
  /** The roots the user chose during the session (chat's /roots), in place of the configured ones. */
  private readonly chosenRoots = new Map<string, readonly string[]>();
  private readonly rootsListeners = new Map<string, Set<() => void>>();

  constructor(private readonly options: ClientFeatureOptions) {}

  /** The directories a server is offered now. */
  rootsOf(server: string): readonly string[] {
    return this.chosenRoots.get(server) ?? this.options.rootsFor(server);
  }

  /**
   * Offers a server these directories from now on (the user chose them) and tells its live connections,
   * which send `notifications/roots/list_changed`. A server connected without the roots capability (it was
   * offered none) cannot be told: `false`, and the choice applies from its next connection.
   */
  setRoots(server: string, directories: readonly string[]): boolean {
    this.chosenRoots.set(server, [...directories]);
    const listeners = this.rootsListeners.get(server) ?? new Set();
    for (const listener of listeners) listener();
    return listeners.size > 0;
  }

  handlersFor(server: string): ServerRequestHandlers {
    const { model, samplingGate } = this.options;
    // The capability is declared at connect time, so a server first offered none gets none on this connection.
    const offersRoots = this.rootsOf(server).length > 0;
    const gate: SamplingGate = { decide: (name, summary, signal) => this.oneAtATime(() => samplingGate.decide(name, summary, signal)) };
    const limits = this.options.limitsFor(server);
    const sampling = new ServerRequestLimiter('sampling requests', limits);
    const elicitation = new ServerRequestLimiter('elicitation requests', limits);
    // Said once per server: a flood of refusals would otherwise be a flood of warnings.
    let warned = false;
    const refused = (reason: string) => {
      if (!warned) this.options.warn(`MCP server "${server}": ${reason}; refused (further refusals are not reported)`);
      warned = true;
    };
    const urls = this.urlElicitations(server, limits);
    return {
      sampling: (params, signal) =>
        sampling.run(
          () => answerSampling(server, params, model, gate, signal),
          (reason) => (refused(reason), { refused: reason }),
        ),
      elicitation: (params, signal) =>
        elicitation.run(
          () => (params.mode === 'url' && urls ? urls.requested(params, signal) : this.elicit(server, params, signal)),
          (reason) => (refused(reason), { action: 'decline' as const }),
        ),
      ...(urls && {
        urlElicitation: {
          required: (elicitations, signal) =>
            elicitation.run(
              () => urls.required(elicitations, signal),
              (reason) => {
                refused(reason);
                throw new AgentError(
                  AgentErrorCode.UrlElicitationUnfinished,
                  `MCP server "${server}" asked for a URL to be opened; ${reason}`,
                );
              },
            ),
          completed: (elicitationId) => urls.completed(elicitationId),
        },
      }),
      ...(offersRoots
        ? {
            roots: async () =>
              this.rootsOf(server).map((directory) => ({
                uri: pathToFileURL(directory).href,
                name: path.basename(directory) || directory,
              })),
            onRootsChange: (listener: () => void) => this.onRootsChange(server, listener),
          }
        : {}),
    };
  }

  /** The server's URL-mode elicitations, when this host answers them. */
  private urlElicitations(server: string, limits: ServerRequestLimits): UrlElicitations | undefined {
    const urls = this.options.urlElicitation;
    if (!urls) return undefined;
    return new UrlElicitations(server, {
      terminal: this.options.terminal,
      print: urls.print,
      browser: urls.browser,
      waitMs: limits.urlWaitMs,
      oneAtATime: (visit) => this.oneAtATime(visit),
    });
  }

  private onRootsChange(server: string, listener: () => void): () => void {
    const listeners = this.rootsListeners.get(server) ?? new Set();
    this.rootsListeners.set(server, listeners);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  close(): Promise<void> {
    const { model, urlElicitation } = this.options;
    urlElicitation?.browser?.close();
    return 'close' in model ? model.close() : Promise.resolve();
  }

  private async elicit(
    server: string,
    params: Parameters<NonNullable<ServerRequestHandlers['elicitation']>>[0],
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const terminal = this.options.terminal;
    // URL mode is declared only with its handler, so the SDK refuses it before it gets here; the check narrows the type.
    if (params.mode === 'url') return { action: 'decline' };
    if (!terminal) {
      this.options.warn(
        `MCP server "${server}" asked for information (elicitation); declined: there is no terminal to ask on (--yes never answers a form)`,
      );
      return { action: 'decline' };
    }
    return this.oneAtATime(() => fillForm(server, params, terminal.ask, (text) => terminal.show(text), signal));
  }

  /** Runs `ask` after every earlier question is answered. */
  private oneAtATime<T>(ask: () => Promise<T>): Promise<T> {
    const next = this.turn.then(ask, ask);
    this.turn = next.catch(() => undefined);
    return next;
  }
}
