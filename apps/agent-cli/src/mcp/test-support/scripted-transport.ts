import type { JSONRPCMessage, McpTransport } from '@toolmesh/protocol';

export interface ScriptedTransportOptions {
  /** When start() resolves: after this many ms, or never (a transport that cannot bound itself). */
  readonly startAfterMs?: number | 'never';
  readonly tools?: ReadonlyArray<{ name: string; inputSchema: Record<string, unknown> }>;
  /** Makes close() fail, as a broken transport might. */
  readonly closeFails?: boolean;
}

/**
 * An in-process MCP peer for the client manager's timing and ownership rules, which real processes
 * cannot hit deterministically (a server that never even starts, a start that outlives the deadline).
 */
export class ScriptedTransport implements McpTransport {
  onmessage?: McpTransport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  static inFlightStarts = 0;
  static maxInFlightStarts = 0;
  closeCalls = 0;

  constructor(private readonly options: ScriptedTransportOptions = {}) {}

  async start(): Promise<void> {
    const delay = this.options.startAfterMs ?? 0;
    ScriptedTransport.inFlightStarts += 1;
    ScriptedTransport.maxInFlightStarts = Math.max(ScriptedTransport.maxInFlightStarts, ScriptedTransport.inFlightStarts);
    try {
      await new Promise<void>((resolve) => {
        if (delay !== 'never') setTimeout(resolve, delay);
      });
    } finally {
      ScriptedTransport.inFlightStarts -= 1;
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) || !('id' in message)) return;
    const results: Record<string, unknown> = {
      initialize: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1.0.0' } },
      'tools/list': { tools: this.options.tools ?? [{ name: 'noop', inputSchema: { type: 'object' } }] },
      'tools/call': { content: [{ type: 'text', text: 'ok' }] },
    };
    const result = results[message.method];
    queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: message.id, result: (result ?? {}) as never }));
  }

  async close(): Promise<void> {
    this.closeCalls += 1;
    if (this.options.closeFails) throw new Error('close failed on purpose');
    this.onclose?.();
  }
}
