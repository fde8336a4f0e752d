import { Writable } from 'node:stream';

import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { type RunningGateway, startGateway } from '../app/start-gateway';
import { defaultConfig } from '../config/defaults';
import type { GatewayConfig } from '../config/gateway-config';

export const TEST_PROTOCOL_VERSION = '2025-11-25';

export interface TestGateway {
  readonly url: string;
  readonly gateway: RunningGateway;
  /** Every log line written so far. */
  logs(): string;
  /** POSTs one JSON-RPC message with the headers a well-behaved client sends after initialize. */
  post(message: unknown, headers?: Record<string, string>): Promise<Response>;
  /** `post` for a request, returning the parsed JSON-RPC response. */
  rpc(method: string, params?: unknown, headers?: Record<string, string>): Promise<JsonRpcReply>;
  stop(): Promise<void>;
}

export interface JsonRpcReply {
  id?: unknown;
  result?: { content?: Array<{ type: string; text: string; _meta?: { searchTime: number } }>; isError?: boolean; [key: string]: unknown };
  error?: { code: number; message: string };
}

/** An in-process gateway on free ports with the sample tool service as its bundle and captured logs. */
export async function startTestGateway(
  toolServiceUrl: string,
  adjust: (config: GatewayConfig) => void = () => undefined,
  options: { now?: () => number; env?: Record<string, string> } = {},
): Promise<TestGateway> {
  const config = defaultConfig();
  config.server = { ...config.server, host: '127.0.0.1', port: 0, managementPort: 0 };
  config.mcp.bundles = [{ name: 'sample', serviceDomain: toolServiceUrl, manifestPath: '/tool-manifest' }];
  config.mcp.shutdownDrainMillis = 2_000;
  adjust(config);

  let logs = '';
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs += chunk.toString('utf8');
      done();
    },
  });
  const gateway = await startGateway(config, {
    env: { POD_IP: '10.1.2.3', POD_NAME: 'gateway-pod-0', ...options.env },
    logStream,
    ...(options.now && { now: options.now }),
  });
  await fetch(gateway.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
  });

  let nextId = 1;
  const post = (message: unknown, headers: Record<string, string> = {}) =>
    fetch(gateway.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': TEST_PROTOCOL_VERSION,
        ...headers,
      },
      body: typeof message === 'string' ? message : JSON.stringify(message),
    });
  return {
    url: gateway.mcpUrl,
    gateway,
    logs: () => {
      gateway.logger.flush(); // lines are batched for up to 20 ms; a test reads what has been logged so far
      return logs;
    },
    post,
    rpc: async (method, params, headers) => {
      const res = await post({ jsonrpc: '2.0', id: nextId++, method, ...(params !== undefined && { params }) }, headers);
      return (await res.json()) as JsonRpcReply;
    },
    stop: () => gateway.stop(),
  };
}

/**
 * For a `describe` block: the sample tool service as a process and an in-process gateway in front of it,
 * started before the block's tests and stopped after them.
 */
export function useGatewayWithSampleService(
  adjust?: (config: GatewayConfig) => void,
  options?: { env?: Record<string, string> },
): {
  tools: () => SampleToolService;
  gateway: () => TestGateway;
} {
  let tools: SampleToolService | undefined;
  let gateway: TestGateway | undefined;
  beforeAll(async () => {
    tools = await startSampleToolService();
    gateway = await startTestGateway(tools.url, adjust, options);
  });
  afterAll(async () => {
    await gateway?.stop();
    await tools?.stop();
  });
  return {
    tools: () => tools as SampleToolService,
    gateway: () => gateway as TestGateway,
  };
}
