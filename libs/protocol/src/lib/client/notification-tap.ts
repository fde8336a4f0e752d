import type { JSONRPCNotification } from '../jsonrpc/messages';
import type { McpTransport, TransportSendOptions } from '../transport/mcp-transport';
import type { JSONRPCMessage } from '../jsonrpc/messages';

/**
 * Sits between the SDK client and a transport and hands every inbound frame without an `id` (a
 * notification) to `onNotification` before the client sees it. This is where the seed's unwired
 * listener SPI gets its producer, once, for every transport.
 */
export class NotificationTap implements McpTransport {
  onmessage?: McpTransport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;

  constructor(
    private readonly inner: McpTransport,
    private readonly onNotification: (notification: JSONRPCNotification) => void,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (!('id' in message)) this.onNotification(message as JSONRPCNotification);
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}
