import { PassThrough } from 'node:stream';

import type { JSONRPCMessage } from '@toolmesh/protocol';

import { NdjsonStreamTransport } from './ndjson-stream-transport';
import { StdioErrorCode, StdioTransportError } from './stdio-errors';

function connected(maxMessageBytes = 1024) {
  const fromServer = new PassThrough();
  const toServer = new PassThrough();
  const transport = new NdjsonStreamTransport(fromServer, toServer, { maxMessageBytes });
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  return { transport, fromServer, toServer, messages, errors };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('NdjsonStreamTransport', () => {
  it('writes one JSON line per message and reads responses and notifications in order', async () => {
    const { transport, fromServer, toServer, messages } = connected();
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(toServer.read().toString()).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');

    fromServer.write(
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}\n{"jsonrpc":"2.0","id":1,"result":{}}\n',
    );
    await tick();
    expect(messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
  });

  it('drops malformed and oversized lines with a clear error and keeps the channel open', async () => {
    const { transport, fromServer, messages, errors } = connected(64);
    await transport.start();
    fromServer.write(`not json\n{"id":1}\n${'x'.repeat(100)}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`);
    await tick();

    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect(errors.map((e) => (e as StdioTransportError).code)).toEqual([
      StdioErrorCode.MalformedMessage,
      StdioErrorCode.MalformedMessage,
      StdioErrorCode.MessageTooLarge,
    ]);
    expect(errors[2].message).toContain('100 bytes (limit 64)');
  });

  it('drops a line nested deeper than 256 levels unparsed, answering the request it replies to, and keeps the channel open', async () => {
    const { transport, fromServer, messages, errors } = connected(1 << 20);
    await transport.start();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    fromServer.write(`{"jsonrpc":"2.0","result":{"deep":${deep}},"id":7}\n{"jsonrpc":"2.0","method":"x","params":{"deep":${deep}}}\n`);
    fromServer.write('{"jsonrpc":"2.0","id":8,"result":{"within":[[[]]]}}\n');
    await tick();

    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32603,
          message:
            "the server's reply is nested deeper than this client's limit of 256 levels; it was dropped unparsed [stdio.message_too_deep]",
          data: { reason: 'stdio.message_too_deep', limit: 256 },
        },
      },
      { jsonrpc: '2.0', id: 8, result: { within: [[[]]] } },
    ]);
    expect(errors.map((e) => (e as StdioTransportError).code)).toEqual([StdioErrorCode.MessageTooDeep, StdioErrorCode.MessageTooDeep]);
  });

  it('closes once when the server ends its output, and refuses to send afterwards', async () => {
    const { transport, fromServer } = connected();
    let closes = 0;
    transport.onclose = () => (closes += 1);
    await transport.start();
    fromServer.end();
    await tick();
    await transport.close();

    expect(closes).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: StdioErrorCode.NotConnected });
  });
});
