import { Client, type Transport } from '@modelcontextprotocol/client';

import type { JSONRPCMessage } from '../jsonrpc/messages';
import { McpMethod } from '../mcp/methods';
import { LATEST_PROTOCOL_VERSION } from '../mcp/versions';
import type { McpTransport } from './mcp-transport';

/** A transport that answers `initialize` like a server would, written against our contract only. */
class ScriptedServerTransport implements McpTransport {
  onmessage?: McpTransport['onmessage'];
  onclose?: () => void;
  readonly sent: JSONRPCMessage[] = [];

  async start(): Promise<void> {
    // nothing to open: the peer is this object
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    if ('method' in message && message.method === McpMethod.Initialize && 'id' in message) {
      const result = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, serverInfo: { name: 'scripted', version: '1.0.0' } };
      queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id: message.id, result }));
    }
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

describe('McpTransport', () => {
  it('is accepted by the SDK client wherever the SDK expects its own Transport', async () => {
    const transport = new ScriptedServerTransport();
    const asSdkTransport: Transport = transport; // fails typecheck if the contracts drift apart
    const client = new Client({ name: 'contract-test', version: '0.0.0' });

    await client.connect(asSdkTransport);

    expect(client.getServerVersion()?.name).toBe('scripted');
    expect(transport.sent.map((m) => ('method' in m ? m.method : 'response'))).toEqual(['initialize', 'notifications/initialized']);
    await client.close();
  });
});
