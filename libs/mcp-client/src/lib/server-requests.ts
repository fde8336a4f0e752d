import {
  type Client,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  ProtocolError,
  type Root,
} from '@modelcontextprotocol/client';

export type { CreateMessageRequestParams, CreateMessageResult, ElicitResult };

/**
 * URL-mode elicitation beyond the requests themselves (2025-11-25): a tool call refused with `-32042`
 * (URLElicitationRequiredError) until the user has opened the server's URLs, and the server's word that
 * one is done (`notifications/elicitation/complete`). A 2026-07-28 server asks by URL-mode input requests
 * only, which `elicitation` answers like any other.
 */
export interface UrlElicitationHandlers {
  /** Takes the user to each URL; resolves once they are done, rejects with the reason when they are not (the call then fails with it). */
  required(elicitations: readonly ElicitRequestURLParams[], signal?: AbortSignal): Promise<void>;
  /** Each `notifications/elicitation/complete` of the server. */
  completed(elicitationId: string): void;
}

/** A sampling request the client will not run: answered with this message and the JSON-RPC code -1 MCP's examples use. */
export interface SamplingRefusal {
  readonly refused: string;
}

/**
 * The client's answers to the requests a server may send it (MCP "client features"). Each handler given
 * is declared as a capability at initialize; one left out stays undeclared, and the SDK answers its
 * requests -32601 as before. Handlers get the server's cancellation as `signal`.
 */
export interface ServerRequestHandlers {
  readonly sampling?: (params: CreateMessageRequestParams, signal: AbortSignal) => Promise<CreateMessageResult | SamplingRefusal>;
  /**
   * Form mode, and URL mode when `urlElicitation` is given too. The handler fills in the schema's defaults
   * (SEP-1034); the SDK is not asked to.
   */
  readonly elicitation?: (params: ElicitRequestParams, signal: AbortSignal) => Promise<ElicitResult>;
  /** With `elicitation`: URL mode is declared, and a tool call's `-32042` is answered and the call retried once (McpClient.callTool). */
  readonly urlElicitation?: UrlElicitationHandlers;
  readonly roots?: () => Promise<readonly Root[]>;
  /**
   * Subscribes to changes of the roots; given with `roots`, `roots.listChanged` is declared and each change
   * is told to a connected initialize-era server as `notifications/roots/list_changed` (a 2026-07-28 server
   * asks for the roots in each `input_required` round, so it needs no telling). Returns the unsubscribe.
   */
  readonly onRootsChange?: (listener: () => void) => () => void;
}

/** The capabilities the handlers make true: nothing is declared that is not answered. */
export function clientCapabilities(handlers: ServerRequestHandlers): ClientCapabilities {
  return {
    ...(handlers.sampling ? { sampling: {} } : {}),
    ...(handlers.elicitation ? { elicitation: handlers.urlElicitation ? { form: {}, url: {} } : { form: {} } } : {}),
    ...(handlers.roots ? { roots: handlers.onRootsChange ? { listChanged: true } : {} } : {}),
  };
}

/** Registers the handlers on an SDK client made with `clientCapabilities(handlers)`. */
export function registerServerRequests(sdk: Client, handlers: ServerRequestHandlers): void {
  const { sampling, elicitation, urlElicitation, roots } = handlers;
  if (sampling) {
    sdk.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      const answer = await sampling(request.params, ctx.mcpReq.signal);
      if (isRefusal(answer)) throw new ProtocolError(-1, answer.refused);
      return answer;
    });
  }
  if (elicitation) sdk.setRequestHandler('elicitation/create', (request, ctx) => elicitation(request.params, ctx.mcpReq.signal));
  if (elicitation && urlElicitation)
    sdk.setNotificationHandler('notifications/elicitation/complete', (notification) =>
      urlElicitation.completed(notification.params.elicitationId),
    );
  if (roots) sdk.setRequestHandler('roots/list', async () => ({ roots: [...(await roots())] }));
}

// A result may carry any extra member, so the refusal is told apart by its string `refused`.
export function isRefusal(answer: CreateMessageResult | SamplingRefusal): answer is SamplingRefusal {
  return typeof (answer as Partial<SamplingRefusal>).refused === 'string';
}
