import type { Readable, Writable } from 'node:stream';

import {
  DEFAULT_MAX_DEPTH,
  JsonDepthGauge,
  type JSONRPCMessage,
  type McpTransport,
  OVERSIZED_EDGE_BYTES,
  oversizedReply,
  oversizedReplyId,
  parseJsonRpcMessage,
  tooDeepReply,
} from '@toolmesh/protocol';

import { LineSplitter } from './framing/line-splitter';
import { StdioErrorCode, StdioTransportError } from './stdio-errors';

/** 4 MiB: far above any real tool list or result, far below what would hurt the agent. */
const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/**
 * The deepest nesting of a message, the envelope being level 1: what the JSON-RPC parser accepts anyway,
 * measured on the line's bytes first, so that a deeper one is dropped unparsed (parsing 4 MB of `[[[[`
 * costs a second of CPU and hundreds of MB before the parser can refuse it).
 */
const MAX_MESSAGE_DEPTH = DEFAULT_MAX_DEPTH;

export interface NdjsonStreamTransportOptions {
  /** Longest inbound line accepted; longer ones are dropped and reported through `onerror`. */
  readonly maxMessageBytes?: number;
}

/**
 * MCP over a pair of byte streams, one JSON-RPC message per line. Knows nothing about processes: the
 * streams come in through the constructor (as in the SDK's StdioServerTransport), so the framing is
 * tested on in-memory streams and reused by the child-process transport.
 *
 * Inbound lines that are too long, nested too deep or not one valid JSON-RPC message are dropped and
 * reported through `onerror`; the channel stays open, because one bad line from a server should not cost
 * its session. A reply too long to keep, or too deep to parse, fails its request at once: the transport
 * hands on an error response in its place.
 */
export class NdjsonStreamTransport implements McpTransport {
  onmessage?: McpTransport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private readonly splitter: LineSplitter;
  private readonly maxMessageBytes: number;
  private state: 'new' | 'open' | 'closed' = 'new';

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: NdjsonStreamTransportOptions = {},
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.splitter = new LineSplitter(this.maxMessageBytes, OVERSIZED_EDGE_BYTES);
  }

  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('NdjsonStreamTransport.start() was called twice');
    this.state = 'open';
    this.input.on('data', this.onData);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
    this.input.once('end', this.onInputEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.state !== 'open') throw new StdioTransportError(StdioErrorCode.NotConnected, 'the stdio channel is not open');
    const line = `${JSON.stringify(message)}\n`;
    await new Promise<void>((resolve, reject) => {
      // The callback fires once the data is handed to the OS (or failed), which also waits out backpressure.
      this.output.write(line, (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.input.off('data', this.onData);
    this.input.off('end', this.onInputEnd);
    this.output.end();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (const event of this.splitter.push(bytes)) {
      if (event.kind === 'oversized') {
        this.report(StdioErrorCode.MessageTooLarge, `dropped an inbound message of ${event.bytes} bytes (limit ${this.maxMessageBytes})`);
        // A reply we can tell the id of fails its request now, instead of leaving it to its timeout.
        const id = oversizedReplyId(event.head, event.tail);
        if (id !== undefined) this.onmessage?.(oversizedReply(id, event.bytes, this.maxMessageBytes, StdioErrorCode.MessageTooLarge));
        continue;
      }
      if (!withinDepth(event.line)) {
        this.report(StdioErrorCode.MessageTooDeep, `dropped an inbound message nested deeper than ${MAX_MESSAGE_DEPTH} levels`);
        const id = oversizedReplyId(edge(event.line, 0), edge(event.line, event.line.length - OVERSIZED_EDGE_BYTES));
        if (id !== undefined) this.onmessage?.(tooDeepReply(id, MAX_MESSAGE_DEPTH, StdioErrorCode.MessageTooDeep));
        continue;
      }
      const parsed = parseJsonRpcMessage(event.line);
      if (!parsed.ok) {
        this.report(
          StdioErrorCode.MalformedMessage,
          `dropped an inbound line that is not a JSON-RPC message: ${parsed.error.error.message}`,
        );
        continue;
      }
      this.onmessage?.(parsed.value.message as JSONRPCMessage);
    }
  };

  private readonly onInputEnd = (): void => {
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private report(code: StdioErrorCode, message: string): void {
    this.onerror?.(new StdioTransportError(code, message));
  }
}

/** Whether a line is nested no deeper than MAX_MESSAGE_DEPTH: a line shorter than two brackets a level cannot be deeper. */
function withinDepth(line: Buffer): boolean {
  return line.length <= 2 * MAX_MESSAGE_DEPTH || new JsonDepthGauge(MAX_MESSAGE_DEPTH).feed(line);
}

/** OVERSIZED_EDGE_BYTES of a line from `start`, as text, to find a dropped reply's id. */
function edge(line: Buffer, start: number): string {
  return line.subarray(Math.max(0, start), Math.max(0, start) + OVERSIZED_EDGE_BYTES).toString('utf8');
}
