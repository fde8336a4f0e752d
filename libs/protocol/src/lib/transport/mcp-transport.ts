import type { MessageExtraInfo, TransportSendOptions } from '@modelcontextprotocol/client';

import type { InboundResponse, JSONRPCMessage, JSONRPCRequest } from '../jsonrpc/messages';
import type { Cancellation } from './cancellation';

/**
 * One message channel to one MCP peer. Every transport in this repository (stdio and Streamable HTTP,
 * client and server side) implements it, and it is shaped like the SDK's `Transport` so that the SDK
 * client and server can run over our transports unchanged.
 *
 * Errors that do not end the channel (a malformed inbound line, a failed notification stream) go to
 * `onerror`; they are reports, not exceptions. `onclose` fires exactly once, whoever closed.
 */
export interface McpTransport {
  /** Opens the channel (spawns the process, opens the stream). Resolves when messages can flow. */
  start(): Promise<void>;
  /** Sends one message; rejects if it could not be handed to the peer. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
  /** Closes the channel and releases everything it holds (processes, sockets, timers). Idempotent. */
  close(): Promise<void>;

  /** Every inbound message, requests, responses and notifications alike, in arrival order. */
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  /** Streamable HTTP only: the session the server assigned, if any. */
  readonly sessionId?: string;
  /** Streamable HTTP only: the negotiated version, sent as `MCP-Protocol-Version` from then on. */
  setProtocolVersion?: (version: string) => void;
  /**
   * Streamable HTTP only: one request per message, each honouring `TransportSendOptions.requestSignal`
   * (the SDK client then cancels a 2026-07-28 request by aborting it instead of sending a cancellation).
   */
  readonly hasPerRequestStream?: boolean;
  /**
   * Streamable HTTP only: one request sent and its answer returned, outside `onmessage` and so outside the
   * SDK client's request machinery (a gateway's forwarded call, which passes the answer on unread).
   */
  exchange?(request: JSONRPCRequest, options?: ExchangeOptions): Promise<InboundResponse>;
}

export interface ExchangeOptions {
  /**
   * Aborting it ends the request (over HTTP its stream is closed) and rejects the exchange with its reason.
   * A `Cancellation`, not an `AbortSignal`: an exchange is made for every forwarded call (cancellation.ts).
   */
  readonly cancellation?: Cancellation;
  /**
   * Each other message that comes with the request (the server's requests during the call, its
   * notifications): true when the owner took it; the others go to `onmessage` as usual.
   */
  readonly route?: (message: JSONRPCMessage) => boolean;
}

export type { MessageExtraInfo, TransportSendOptions };
