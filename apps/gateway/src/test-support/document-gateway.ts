import { DocumentServer } from '@toolmesh/test-peers/document-server';
import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import { TEST_PROTOCOL_VERSION } from './test-gateway';

/**
 * The built gateway, as its own process, in front of a scripted tool service (a DocumentServer): for e2e
 * specs whose tool service is a handful of documents, a manifest and the replies of its endpoints.
 */
export interface DocumentGateway {
  readonly service: DocumentServer;
  readonly gateway: ServerProcess;
  readonly mcpUrl: string;
  readonly managementUrl: string;
  /** One JSON-RPC request at TEST_PROTOCOL_VERSION, and its answer's body. */
  rpc<T = { result?: Record<string, unknown>; error?: unknown }>(method: string, params: unknown): Promise<T>;
}

/**
 * Starts the service, lets `serve` give it its documents, then starts a gateway with the configuration
 * `config` writes for the service's URL (by default one bundle, `sample`, of its /tool-manifest) and `env`
 * added to its environment, before the block's tests; stops both after them. The returned function gives
 * the running pair.
 */
export function useDocumentGateway(
  serve: (service: DocumentServer) => void,
  config: (serviceUrl: string) => string = (url) => gatewayConfigFile(url),
  env: Record<string, string> = {},
): () => DocumentGateway {
  let running: DocumentGateway | undefined;
  let service: DocumentServer | undefined;
  let gateway: (ServerProcess & { match: RegExpExecArray }) | undefined;

  beforeAll(async () => {
    service = await new DocumentServer().start();
    serve(service);
    gateway = await spawnGateway(config(service.url), env);
    const [, mcpUrl, managementUrl] = gateway.match;
    running = { service, gateway, mcpUrl, managementUrl, rpc: (method, params) => rpc(mcpUrl, method, params) };
  });
  afterAll(async () => {
    await gateway?.stop();
    await service?.stop();
  });
  return () => {
    if (running === undefined) throw new Error('the document gateway is started in beforeAll; use it inside a test');
    return running;
  };
}

async function rpc<T>(mcpUrl: string, method: string, params: unknown): Promise<T> {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': TEST_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as T;
}
