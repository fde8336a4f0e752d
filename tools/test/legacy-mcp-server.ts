import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received, as it came. */
export interface ReceivedMcpRequest {
  readonly headers: IncomingHttpHeaders;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/** A JSON-RPC answer of the spec's, or none at all. */
export type LegacyMcpAnswer = { readonly result: unknown } | { readonly error: { code: number; message: string } } | 'unanswered';

/** What a spec makes the server do; anything left out is what a plain 2025 server does. */
export interface LegacyMcpBehaviour {
  /** Every request is read and left unanswered, unrecorded: a server that accepts connections and says nothing. */
  silent?(): boolean;
  /** An `initialize`: accepted (undefined), refused with this HTTP status, or left unanswered. */
  initialize?(): number | 'unanswered' | undefined;
  /** A request of the live session other than `initialize`; undefined: -32601. */
  answer?(method: string, params: Record<string, unknown> | undefined): LegacyMcpAnswer | undefined;
}

export interface LegacyMcpServer {
  readonly url: URL;
  /** Every request received since the last `reset`, in order. */
  readonly received: readonly ReceivedMcpRequest[];
  /** What a restarted server does: it knows none of the sessions it gave out, so they get 404. */
  forgetSessions(): void;
  /** Forgets what it received and its session. */
  reset(): void;
  /** Ends every open connection, a request still waiting for its answer included; it goes on listening. */
  dropConnections(): void;
  close(): Promise<void>;
}

/**
 * A hand-written 2025 MCP server on loopback, for the specs of session handling: JSON answers, a session id
 * made at each `initialize` (404 to any other), `server/discover` refused with -32601 as a 2025 server does,
 * `tools` and `logging` declared, and what else it answers the spec's (`behaviour`).
 */
export async function startLegacyMcpServer(name: string, behaviour: LegacyMcpBehaviour = {}): Promise<LegacyMcpServer> {
  let received: ReceivedMcpRequest[] = [];
  let session = '';
  const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (behaviour.silent?.()) return;
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const { id, method, params } = JSON.parse(text) as { id?: number; method: string; params?: Record<string, unknown> };
    received.push({ headers: req.headers, method, ...(params && { params }) });
    if (method === 'server/discover') return void json(res, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    if (method === 'initialize') {
      const refusal = behaviour.initialize?.();
      if (refusal === 'unanswered') return;
      if (refusal !== undefined) return void res.writeHead(refusal).end();
      session = `session-${received.length}`;
      const result = { protocolVersion: '2025-11-25', capabilities: { tools: {}, logging: {} }, serverInfo: { name, version: '1' } };
      return void json(res, { jsonrpc: '2.0', id, result }, { 'mcp-session-id': session });
    }
    if (req.headers['mcp-session-id'] !== session) return void res.writeHead(404).end();
    if (id === undefined) return void res.writeHead(202).end();
    const answer = behaviour.answer?.(method, params) ?? { error: { code: -32601, message: 'Method not found' } };
    if (answer === 'unanswered') return;
    return void json(res, { jsonrpc: '2.0', id, ...answer });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
    get received() {
      return received;
    },
    forgetSessions: () => {
      session = 'forgotten';
    },
    reset: () => {
      received = [];
      session = '';
    },
    dropConnections: () => server.closeAllConnections(),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
