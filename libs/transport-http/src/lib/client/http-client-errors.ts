import { CodedError } from '@toolmesh/protocol';
/**
 * Local errors of the Streamable HTTP client transport. Stable string codes, listed in docs/errors.md
 * ("transport-http client"); a test keeps the two in agreement. Messages name the endpoint by origin and
 * path only (no query, no credentials) and never contain a header value.
 */
export const HttpClientErrorCode = {
  /** The request never got an HTTP answer: refused connection, DNS failure, reset, timeout. */
  RequestFailed: 'http.request_failed',
  /** The server answered with a status that is not a success; the message gives the status. */
  HttpStatus: 'http.status',
  /** The server ended our session (HTTP 404 to a request carrying a session id). */
  SessionExpired: 'http.session_expired',
  /** A reply's content type was neither application/json nor text/event-stream. */
  UnexpectedContentType: 'http.unexpected_content_type',
  /** A JSON body or an SSE event exceeded the maximum message size and was dropped. */
  MessageTooLarge: 'http.message_too_large',
  /**
   * A JSON body or an SSE event nested deeper than 256 levels (the JSON-RPC parser's limit) and was dropped
   * unparsed, as it arrived.
   */
  MessageTooDeep: 'http.message_too_deep',
  /** A JSON body or an SSE event was not one valid JSON-RPC message and was dropped. */
  MalformedMessage: 'http.malformed_message',
  /** A reply stream ended before its answer and could not be resumed (no event id, or the server refused). */
  StreamEnded: 'http.stream_ended',
  /** `send` was called before `start` or after `close`. */
  NotConnected: 'http.not_connected',
  /** The transport was closed while an exchange waited for its answer; the request may have run. */
  ConnectionClosed: 'http.connection_closed',
} as const;

export type HttpClientErrorCode = (typeof HttpClientErrorCode)[keyof typeof HttpClientErrorCode];

export class HttpClientError extends CodedError<HttpClientErrorCode> {
  override readonly name = 'HttpClientError';
  /** The HTTP status, when the server answered one. */
  readonly status: number | undefined;
  /**
   * The start of a refused request's body, for the SDK client's era probe to classify (libs/protocol's
   * SdkTransportBridge); never logged. Only a JSON-RPC error's message from it is quoted in the message.
   */
  readonly body: string | undefined;

  constructor(code: HttpClientErrorCode, message: string, options?: ErrorOptions & { readonly status?: number; readonly body?: string }) {
    super(code, message, options);
    this.status = options?.status;
    this.body = options?.body;
  }
}

/** The server refused our session with 404: the request never ran, and a new session is needed (spec: a new initialize). */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof HttpClientError && error.code === HttpClientErrorCode.SessionExpired;
}

/** The transport was closed while the request waited for its answer (it may have run). */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof HttpClientError && error.code === HttpClientErrorCode.ConnectionClosed;
}

/** The endpoint as error messages may show it: origin and path, never user info or query. */
export function describeEndpoint(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
