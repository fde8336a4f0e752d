import { PassThrough } from 'node:stream';

import { serializeResultResponse } from '@toolmesh/protocol';

import { createLogger, type LogFormat, type Logger } from '../logging/logger';
import { listenHttp, type RunningHttpServer } from './http-server';
import { createMcpHttpApp } from './mcp-http-app';
import { LOOPBACK_ORIGIN_POLICY } from './origin-guard';

const VERSION = '2025-11-25';
const MEGABYTE = 1024 * 1024;

/** The boundary logs of hostile methods: bounded in size and free of control bytes, in both formats (SPEC G26). */
describe.each<LogFormat>(['kv', 'json'])('MCP HTTP front boundary logs (%s)', (format) => {
  let server: RunningHttpServer;
  let logger: Logger;
  const chunks: Buffer[] = [];
  const logged = () => Buffer.concat(chunks);

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    logger = createLogger({ stream, format });
    const app = createMcpHttpApp({
      endpointPath: '/mcp',
      maxBodyBytes: 2 * MEGABYTE,
      requestDeadlineMillis: 5_000,
      originPolicy: LOOPBACK_ORIGIN_POLICY,
      logger,
      dispatch: async (message) =>
        message.kind === 'request' ? { status: 200, json: serializeResultResponse(message.message.id, {}), isError: false } : undefined,
    });
    server = await listenHttp(app, { port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  /** The bytes the logger wrote for one request, up to its completion line. */
  async function logOf(method: string): Promise<Buffer> {
    chunks.length = 0;
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
    });
    await res.arrayBuffer();
    while (!logged().includes('mcp_http_response_completed')) {
      logger.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return logged();
  }

  it('logs a 1 MB method in under 1 KB, as an unknown method with its length', async () => {
    const log = await logOf('m'.repeat(MEGABYTE));
    expect(log.length).toBeLessThan(1024);
    const text = log.toString('utf8');
    expect(text).toContain(
      format === 'kv' ? `method=(unknown) methodLength=${MEGABYTE}` : `"method":"(unknown)","methodLength":${MEGABYTE}`,
    );
    expect(text).not.toContain('mmmm');
  });

  it('never writes the control characters of a method', async () => {
    const log = await logOf('tools/list\u001b]0;owned\u0007\u0000\u009b');
    // eslint-disable-next-line no-control-regex -- the point: no control byte but the lines' newlines
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(log.toString('utf8'))).toBe(false);
    expect(log.toString('utf8')).not.toContain('owned');
  });

  it('logs a method MCP defines by its name', async () => {
    const text = (await logOf('ping')).toString('utf8');
    expect(text).toContain(format === 'kv' ? 'method=ping status=200' : '"method":"ping"');
    expect(text).not.toContain('methodLength');
  });
});
