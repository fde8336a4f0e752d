import { connect, type Socket } from 'node:net';

import { writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';

import { useDocumentGateway } from '../test-support/document-gateway';

/**
 * The gateway's `server.*` connection limits (SPEC G26) reach its HTTP server: a client that never finishes
 * its headers is cut with a JSON-RPC 408 after `headersTimeoutMillis`, and connections beyond
 * `maxConnections` are closed as they arrive, until one of the others ends.
 */
describe('connection limits of the built gateway', () => {
  const running = useDocumentGateway(
    (service) => service.serve('/tool-manifest', { json: { tools: [] } }),
    (serviceUrl) =>
      writeGatewayConfig(`server: { port: 0, managementPort: 0, headersTimeoutMillis: 500, requestTimeoutMillis: 1000, maxConnections: 3 }
mcp:
  bundles:
    - { name: sample, serviceDomain: "${serviceUrl}", manifestPath: /tool-manifest }
`),
  );

  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(Number(new URL(running().mcpUrl).port), '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
    });
  /** Everything the server sends until it closes the socket. */
  const untilClosed = (socket: Socket) =>
    new Promise<string>((resolve) => {
      let received = '';
      socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
      socket.on('error', () => undefined);
      socket.once('close', () => resolve(received));
    });
  const ping = () =>
    fetch(running().mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });

  it('cuts a client that never finishes its headers with a JSON-RPC 408', async () => {
    const socket = await open();
    const answer = untilClosed(socket);
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '); // and nothing more
    const received = await answer;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600 },
    });
    expect((await ping()).status).toBe(200);
  });

  it('closes connections beyond maxConnections as they arrive, and serves again once one ends', async () => {
    const held = [await open(), await open(), await open()];
    const extra = await open();
    expect(await untilClosed(extra)).toBe(''); // closed before a byte was read
    held.forEach((socket) => socket.destroy());
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = await ping().then(
        (res) => res.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(200);
  });
});
