import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

import {
  internalError,
  invalidRequest,
  type JsonRpcErrorResponse,
  type ParsedMessage,
  parseJsonRpcBatchOrMessage,
  type ParseResult,
  serializedByteLength,
  type SerializedResponse,
  serializedText,
  serializeErrorResponse,
} from '@toolmesh/protocol';
import express, { type NextFunction, type Request, type Response } from 'express';

import type { Logger } from '../logging/logger';
import type { Authentication, AuthenticationRefusal, Authenticator } from './authenticator';
import { answerMembers, type BatchPolicy, batchResponse, tooManyMembers } from './batch-answers';
import { readBoundedBody } from './bounded-body';
import { correlatedHeaders, correlatedRequest, echoCorrelation, readCorrelation } from './correlated-request';
import type { CorrelationValues } from './correlation-headers';
import { addCorsHeaders, answerPreflight, isPreflight } from './cors';
import { type DispatchOutcome, isStreamOutcome, type JsonOutcome, type McpDispatcher, type McpGetHandler } from './dispatch-outcome';
import { sendJsonRpcError } from './error-responses';
import { startEventStream } from './event-stream';
import { HangUp } from './hang-up';
import { BATCH, type LoggedMethod, loggedMethod, NO_METHOD } from './logged-method';
import { checkOrigin, type OriginPolicy } from './origin-guard';
import type { RequestContext } from './request-context';

export interface McpHttpAppOptions {
  /** The one public path (SPEC G1), e.g. `/mcp`. */
  readonly endpointPath: string;
  readonly maxBodyBytes: number;
  /** Budget of one request from arrival (SPEC G12). */
  readonly requestDeadlineMillis: number;
  readonly originPolicy: OriginPolicy;
  /** Debugging only: logs request and response bodies. Off in production (SPEC G3). */
  readonly payloadLogging?: boolean;
  /** Keep the caller's Authorization header in the request context (for forwarding to tool services). */
  readonly keepAuthorization?: boolean;
  readonly logger: Logger;
  readonly dispatch: McpDispatcher;
  /**
   * Told of each message the application answered, before the answer is written (the gateway's request
   * metrics). Called in the exchange itself, so observing adds no async hop to the hot path (ADR 0005).
   */
  readonly onAnswered?: (message: ParsedMessage, outcome: DispatchOutcome | undefined, context: RequestContext) => void;
  /**
   * Where a request may be a JSON-RPC batch, and its limits: the application knows its protocol version
   * (MCP 2025-03-26 has batches, later revisions removed them). Without it every batch is refused with -32600.
   */
  readonly batches?: BatchPolicy;
  /** Answers a GET on the endpoint; without it GET is 405. */
  readonly dispatchGet?: McpGetHandler;
  /** Interval of the `:` keep-alive comments on event streams (default 15 s, the SDK's). */
  readonly streamKeepAliveMillis?: number;
  /** Consulted per request; while true, new work is refused with 503 (graceful shutdown). */
  readonly isDraining?: () => boolean;
  /**
   * Checks each request's credentials on the endpoint (POST and GET) once its origin is checked and before
   * its body is read; a refusal is answered with its status and `WWW-Authenticate`. Without it, none.
   */
  readonly authenticate?: Authenticator;
  /** Told of each POST the authenticator refused, before its answer is written (the gateway's audit trail). */
  readonly onUnauthenticated?: (refusal: AuthenticationRefusal, context: RequestContext) => void;
  /** Public JSON documents served on GET at their exact paths, outside the endpoint (an RFC 9728 metadata document). */
  readonly documents?: ReadonlyMap<string, object>;
  /** More endpoints, each on a path of its own with an application of its own (the gateway's curated endpoints). */
  readonly endpoints?: readonly McpEndpointApp[];
  /** Browser pages served on GET at their exact paths, outside the endpoint, each answering on its own (the gateway's consent flow). */
  readonly pages?: ReadonlyMap<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>>;
}

/**
 * Another MCP endpoint of the same front (the gateway's curated endpoints, issue 46): its own path,
 * application and credentials check (the front's when unset); the front's limits, origin policy, logging
 * and draining. Its requests' context names it (`RequestContext.endpoint`).
 */
export interface McpEndpointApp {
  readonly name: string;
  /** Exact, as `endpointPath`. */
  readonly path: string;
  readonly dispatch: McpDispatcher;
  readonly dispatchGet?: McpGetHandler;
  readonly onAnswered?: McpHttpAppOptions['onAnswered'];
  readonly batches?: BatchPolicy;
  readonly authenticate?: Authenticator;
}

/** The options one endpoint's requests are served with: the default endpoint's, or a curated endpoint's over them. */
type EndpointOptions = McpHttpAppOptions & { readonly endpoint?: string };

const DEFAULT_STREAM_KEEP_ALIVE_MILLIS = 15_000;

/**
 * The Streamable HTTP front of a stateless MCP server: one POST endpoint, every message answered with a
 * single JSON response, an event stream or 202, every failure turned into a standard JSON-RPC error
 * response. The front knows HTTP and JSON-RPC only: which protocol revision a message belongs to, and the
 * version checks, methods and statuses that follow from it, are the application's (SPEC G25).
 *
 * POSTs to the endpoint, the one hot path, go straight to the exchange handler; Express serves every
 * other method and path. Express's per-request set-up halved the gateway's throughput when it also
 * routed the hot path (docs/adr/0005-gateway-hot-path.md).
 */
export function createMcpHttpApp(options: McpHttpAppOptions): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // The endpoint is one exact path, as the POST hot path matches it: not /MCP, not /mcp/.
  app.enable('case sensitive routing');
  app.enable('strict routing');
  mountEndpoint(app, options);
  const endpoints = new Map((options.endpoints ?? []).map((endpoint) => [endpoint.path, curatedOptions(options, endpoint)]));
  for (const endpoint of endpoints.values()) mountEndpoint(app, endpoint);
  for (const [path, document] of options.documents ?? []) {
    const json = JSON.stringify(document);
    app.get(path, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) }).end(json);
    });
  }
  for (const [path, page] of options.pages ?? []) app.get(path, page);
  app.use((req: Request, res: Response) => {
    sendJsonRpcError(res, 404, invalidRequest(null, `no MCP endpoint at ${req.path.slice(0, 64)}; use ${options.endpointPath}`));
  });
  // Anything thrown past the handlers (express itself, a bug) still ends as JSON, never an HTML page.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => sendUnhandledError(res, error, options.logger));

  return (req, res) => {
    addCorsHeaders(req, res, options.originPolicy);
    if (req.method !== 'POST' || pathOf(req.url) !== options.endpointPath) {
      // Asked only off the default endpoint's POSTs: they pay nothing for the others.
      const curated = req.method === 'POST' && endpoints.size > 0 ? endpoints.get(pathOf(req.url)) : undefined;
      if (curated === undefined) app(req, res);
      else post(req, res, curated);
      return;
    }
    post(req, res, options);
  };
}

/** An endpoint's routes besides its POSTs: correlation, CORS preflight, its GET stream, 405 for any other method. */
function mountEndpoint(app: express.Express, options: EndpointOptions): void {
  const path = options.endpointPath;
  app.all(path, correlatedRequest(options.logger));
  app.options(path, (req, res, next) => (isPreflight(req) ? answerPreflight(req, res, options.originPolicy) : next()));
  const { dispatchGet } = options;
  if (dispatchGet) app.get(path, (req, res) => answerGet(req, res, res.locals.correlation as CorrelationValues, dispatchGet, options));
  app.all(path, (req, res) => {
    res.setHeader('Allow', 'POST');
    sendJsonRpcError(res, 405, invalidRequest(null, `${req.method} is not served here; POST one JSON-RPC message`));
  });
}

/** A curated endpoint's options: the front's, with its own path, application and (when it has one) credentials check. */
function curatedOptions(options: McpHttpAppOptions, endpoint: McpEndpointApp): EndpointOptions {
  return {
    ...options,
    endpoint: endpoint.name,
    endpointPath: endpoint.path,
    dispatch: endpoint.dispatch,
    dispatchGet: endpoint.dispatchGet,
    onAnswered: endpoint.onAnswered,
    batches: endpoint.batches,
    authenticate: endpoint.authenticate ?? options.authenticate,
    endpoints: [],
  };
}

function post(req: IncomingMessage, res: ServerResponse, options: EndpointOptions): void {
  try {
    startExchange(req, res, options);
  } catch (error) {
    sendUnhandledError(res, error, options.logger);
  }
}

function sendUnhandledError(res: ServerResponse, error: unknown, logger: Logger, context?: RequestContext): void {
  logger.error('mcp_http_unhandled_error', { error: describe(error) }, context);
  refuse(res, 500, internalError(null), context);
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Correlation first, since it names the request in every later log line; then the exchange in its context. */
function startExchange(req: IncomingMessage, res: ServerResponse, options: EndpointOptions): void {
  const receivedAt = performance.now();
  const values = readCorrelation(req, res);
  if (!values) return;
  const hangUp = new HangUp();
  const context = requestContext(req, values, receivedAt, hangUp, options);
  // One async function per exchange, which settles every failure itself, so nobody awaits its promise.
  void exchange(req, res, context, hangUp, options);
}

/**
 * Built member by member, every member present, so every request's context has the same shape: object
 * spreads here cost more than the rest of the exchange's set-up (docs/adr/0005-gateway-hot-path.md).
 */
function requestContext(
  req: IncomingMessage,
  values: CorrelationValues,
  receivedAt: number,
  hangUp: HangUp,
  options: EndpointOptions,
): RequestContext {
  return {
    guid: values.guid,
    requestId: values.requestId,
    sessionId: values.sessionId,
    employeeNo: values.employeeNo,
    virtualEmployeeNo: values.virtualEmployeeNo,
    authorization: options.keepAuthorization ? req.headers.authorization : undefined,
    caller: undefined,
    headers: req.headers,
    clientAddress: req.socket.remoteAddress,
    deadline: receivedAt + options.requestDeadlineMillis,
    receivedAt,
    hangUp,
    endpoint: options.endpoint,
  };
}

/** Refusals before anything is read: shutdown (503, so the balancer tries another replica) and a foreign Origin or Host (403). */
function refusedAtTheDoor(req: IncomingMessage, res: ServerResponse, options: McpHttpAppOptions, context: RequestContext): boolean {
  if (options.isDraining?.()) {
    res.setHeader('Connection', 'close');
    refuse(res, 503, invalidRequest(null, 'the server is shutting down; retry on another replica'), context);
    return true;
  }
  const origin = checkOrigin(req.headers, options.originPolicy);
  if (!origin.ok) {
    refuse(res, 403, invalidRequest(null, `forbidden: ${origin.reason}`), context);
    return true;
  }
  return false;
}

/**
 * The context with the caller the authenticator verified, or `undefined` once the request is refused with
 * its challenge. A copy: only authenticated requests pay for it.
 */
function authenticated(
  res: ServerResponse,
  authentication: Authentication,
  context: RequestContext,
  logger: Logger,
): RequestContext | undefined {
  if ('caller' in authentication) return { ...context, caller: authentication.caller };
  refuseUnauthenticated(res, authentication.refusal, context, logger);
  return undefined;
}

function refuseUnauthenticated(res: ServerResponse, refusal: AuthenticationRefusal, context: RequestContext, logger: Logger): void {
  logger.info('mcp_http_request_unauthenticated', { reason: refusal.reason, status: refusal.status }, context);
  res.setHeader('WWW-Authenticate', refusal.challenge);
  refuse(
    res,
    refusal.status,
    invalidRequest(null, `${refusal.status === 401 ? 'unauthorized' : 'forbidden'}: ${refusal.message}`),
    context,
  );
}

/** A JSON-RPC error answer of an exchange, with its correlation ids (none when it failed before they were read). */
function refuse(res: ServerResponse, status: number, error: JsonRpcErrorResponse, context: RequestContext | undefined): void {
  if (context && !res.headersSent) echoCorrelation(res, context);
  sendJsonRpcError(res, status, error);
}

async function exchange(
  req: IncomingMessage,
  res: ServerResponse,
  unauthenticated: RequestContext,
  hangUp: HangUp,
  options: McpHttpAppOptions,
): Promise<void> {
  const { logger } = options;
  let context = unauthenticated;
  let method: string | undefined;
  let logged: LoggedMethod = NO_METHOD;
  res.on('close', () => {
    // Emitted once per response: `on` spares the wrapper `once` makes on every request.
    const durationMs = Math.round(performance.now() - context.receivedAt);
    if (res.writableFinished) {
      logger.info(
        'mcp_http_response_completed',
        { method: logged.name, methodLength: logged.length, status: res.statusCode, durationMs },
        context,
      );
      return;
    }
    if (res.getHeader('content-type') === 'text/event-stream') {
      // A notification stream ends when its client closes it: that is how a listen is cancelled.
      logger.info('mcp_http_stream_closed', { method: logged.name, methodLength: logged.length, durationMs }, context);
      return;
    }
    logger.warn(
      'mcp_http_response_undeliverable',
      { method: logged.name, methodLength: logged.length, status: res.statusCode, durationMs },
      context,
    );
    hangUp.fire(); // nobody is left to answer: what the request still runs (a tool call) is cancelled
  });
  try {
    if (refusedAtTheDoor(req, res, options, context)) return;
    if (options.authenticate) {
      const pending = options.authenticate(req);
      const authentication = pending instanceof Promise ? await pending : pending;
      if ('refusal' in authentication) options.onUnauthenticated?.(authentication.refusal, context);
      const verified = authenticated(res, authentication, context, logger);
      if (!verified) return;
      context = verified;
    }
    if (!isJsonContentType(req.headers['content-type'])) {
      refuse(res, 415, invalidRequest(null, 'Content-Type must be application/json'), context);
      return;
    }
    const body = await readBoundedBody(req, options.maxBodyBytes);
    if (!body.ok) {
      if (body.reason === 'too_large') {
        res.setHeader('Connection', 'close');
        refuse(res, 413, invalidRequest(null, `the body exceeds ${options.maxBodyBytes} bytes`), context);
      }
      return; // aborted: nobody is left to answer
    }
    const parsed = parseJsonRpcBatchOrMessage(body.body);
    if (parsed.ok && 'batch' in parsed) logged = BATCH;
    else if (parsed.ok && parsed.value.kind !== 'response') {
      method = parsed.value.message.method;
      logged = loggedMethod(method);
    }
    logger.info('mcp_http_request_received', { method: logged.name, methodLength: logged.length }, context);
    if (options.payloadLogging) logger.debug('mcp_http_request_payload', { payload: body.body.toString('utf8') }, context);
    if (!parsed.ok) {
      refuse(res, 400, parsed.error, context);
      return;
    }
    if ('batch' in parsed) {
      await answerBatch(res, parsed.batch, context, options);
      return;
    }

    const message = parsed.value;
    let outcome: DispatchOutcome | undefined;
    try {
      outcome = await options.dispatch(message, context);
      options.onAnswered?.(message, outcome, context);
    } catch (error) {
      logger.error('mcp_dispatch_failed', { method: logged.name, methodLength: logged.length, error: describe(error) }, context);
      const id = message.kind === 'request' ? message.message.id : null;
      refuse(res, 500, internalError(id), context);
      return;
    }
    if (outcome === undefined) {
      res.writeHead(202, correlatedHeaders(context)).end();
      return;
    }
    answer(res, outcome, options, context);
  } catch (error) {
    sendUnhandledError(res, error, logger, context);
  }
}

/**
 * A JSON-RPC batch, where the application accepts one and within its limits (batch-answers.ts): each
 * message dispatched as it would be alone, one after another under the one request's deadline, and the
 * responses sent back in one array (202 when there are none: a batch of notifications and responses). The
 * body limit has applied to the whole batch.
 */
async function answerBatch(
  res: ServerResponse,
  batch: readonly ParseResult[],
  context: RequestContext,
  options: McpHttpAppOptions,
): Promise<void> {
  const policy = options.batches;
  if (!policy?.accepts(context)) {
    refuse(res, 400, invalidRequest(null, 'batches are not supported at this protocol version; send one message per request'), context);
    return;
  }
  const tooMany = tooManyMembers(batch.length, policy);
  if (tooMany) {
    refuse(res, 400, tooMany, context);
    return;
  }
  const responses = await answerMembers(batch, policy, context, (member) => answerInBatch(member, context, options));
  if (responses === undefined) return; // the client hung up: nobody is left to answer
  if (responses.length === 0) {
    res.writeHead(202, correlatedHeaders(context)).end();
    return;
  }
  const json = batchResponse(responses);
  if (options.payloadLogging) options.logger.debug('mcp_http_response_payload', { payload: serializedText(json) }, context);
  sendJson(res, { status: 200, json, isError: false }, context);
}

/** One member of a batch: its response, or undefined for a notification or a client's response. */
async function answerInBatch(
  item: ParseResult,
  context: RequestContext,
  options: McpHttpAppOptions,
): Promise<SerializedResponse | undefined> {
  if (!item.ok) return serializeErrorResponse(item.error);
  const message = item.value;
  const id = message.kind === 'request' ? message.message.id : null;
  try {
    const outcome = await options.dispatch(message, context);
    options.onAnswered?.(message, outcome, context);
    if (outcome === undefined) return undefined;
    // Nothing the 2025 revisions serve on a POST streams; a stream cannot share a JSON array anyway.
    if (isStreamOutcome(outcome))
      return serializeErrorResponse(invalidRequest(id, 'an event stream cannot be part of a batch; send this request alone'));
    return outcome.json;
  } catch (error) {
    const logged = message.kind === 'response' ? NO_METHOD : loggedMethod(message.message.method);
    options.logger.error('mcp_dispatch_failed', { method: logged.name, methodLength: logged.length, error: describe(error) }, context);
    return serializeErrorResponse(internalError(id));
  }
}

function answer(res: ServerResponse, outcome: DispatchOutcome, options: McpHttpAppOptions, context: RequestContext): void {
  if (isStreamOutcome(outcome)) {
    echoCorrelation(res, context);
    outcome.open(startEventStream(res, options.streamKeepAliveMillis ?? DEFAULT_STREAM_KEEP_ALIVE_MILLIS));
    return;
  }
  if (options.payloadLogging) options.logger.debug('mcp_http_response_payload', { payload: serializedText(outcome.json) }, context);
  sendJson(res, outcome, context);
}

/** GET on the endpoint, after correlation: origin and credentials checked as for POST, then the application answers. */
async function answerGet(
  req: IncomingMessage,
  res: ServerResponse,
  correlation: CorrelationValues,
  dispatchGet: McpGetHandler,
  options: EndpointOptions,
): Promise<void> {
  const hangUp = new HangUp();
  res.once('close', () => hangUp.fire());
  let context: RequestContext | undefined = requestContext(req, correlation, performance.now(), hangUp, options);
  if (refusedAtTheDoor(req, res, options, context)) return;
  if (options.authenticate) {
    context = authenticated(res, await options.authenticate(req), context, options.logger);
    if (!context) return;
  }
  answer(res, dispatchGet(context), options, context);
}

/** The answer's headers in one `writeHead` list, the correlation ids among them (see `correlatedHeaders`). */
function sendJson(res: ServerResponse, outcome: JsonOutcome, correlation: RequestContext): void {
  const { json } = outcome;
  const headers = correlatedHeaders(correlation, 'Content-Type', 'application/json', 'Content-Length', serializedByteLength(json));
  if (outcome.headers) for (const [name, value] of Object.entries(outcome.headers)) headers.push(name, value);
  res.writeHead(outcome.status, headers);
  if (typeof json === 'string') {
    res.end(json);
    return;
  }
  res.cork(); // the chunks leave in one write
  for (const chunk of json) res.write(chunk);
  res.end();
}

function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === 'application/json') return true; // what clients send: no split, trim or copy on the hot path
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json';
}

/** Error descriptions for logs: the message only, which our own code writes without request data. */
function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
