import type { ServerResponse } from 'node:http';

/** An open Server-Sent Events response, as the application sees it. */
export interface EventStream {
  /** Sends one JSON-RPC message as one `message` event; ignored once the stream has ended. */
  send(json: string): void;
  /** Ends the stream (after a final message, if any). */
  end(): void;
  /** True until the stream ended or the client went away. */
  readonly open: boolean;
  /** Called once when the stream ends for any reason: `end()`, the client leaving, the server closing. */
  onClose(listener: () => void): void;
}

/**
 * Starts an SSE response on `res`: the headers go out at once, so the client knows the stream is open, and
 * a `:` comment every `keepAliveMillis` keeps idle proxies from cutting it (2026-07-28 §Streamable HTTP).
 */
export function startEventStream(res: ServerResponse, keepAliveMillis: number): EventStream {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    // nginx and OpenShift's HAProxy otherwise buffer the stream until it ends.
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  const closeListeners: Array<() => void> = [];
  let open = true;
  const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), keepAliveMillis);
  keepAlive.unref();
  res.once('close', () => {
    open = false;
    clearInterval(keepAlive);
    for (const listener of closeListeners.splice(0)) listener();
  });
  return {
    send(json) {
      if (open) res.write(`event: message\ndata: ${json}\n\n`);
    },
    end() {
      if (open) res.end();
    },
    get open() {
      return open;
    },
    onClose(listener) {
      if (open) closeListeners.push(listener);
      else listener();
    },
  };
}
