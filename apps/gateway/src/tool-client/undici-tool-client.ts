import { Agent } from 'undici';
import type { ToolClient, ToolHttpRequest, ToolHttpResponse } from './tool-client';

export interface UndiciToolClientOptions {
  /** Keep-alive connections per tool service origin. */
  connectionsPerOrigin: number;
  /** Replies larger than this are refused rather than buffered. */
  maxReplyBytes: number;
}

/**
 * The tool-call HTTP client: one keep-alive pool per tool service origin, shared by all requests, and
 * separate from the catalogue's client. undici, not got: got caps the gateway far below its throughput
 * target (docs/adr/0004-undici-for-tool-calls.md).
 */
export class UndiciToolClient implements ToolClient {
  private readonly agent: Agent;

  constructor(private readonly options: UndiciToolClientOptions) {
    this.agent = new Agent({ connections: options.connectionsPerOrigin, keepAliveTimeout: 30_000 });
  }

  async post(request: ToolHttpRequest): Promise<ToolHttpResponse> {
    const signal = AbortSignal.timeout(request.timeoutMillis);
    try {
      const response = await this.agent.request({
        origin: request.endpoint.origin,
        path: `${request.endpoint.pathname}${request.endpoint.search}`,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal,
        // The abort signal bounds the whole call; these only stop undici's own, longer defaults.
        headersTimeout: request.timeoutMillis,
        bodyTimeout: request.timeoutMillis,
      });
      let size = 0;
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > this.options.maxReplyBytes) {
          response.body.destroy();
          return { kind: 'failure', reason: 'reply_too_large', detail: `the reply exceeds ${this.options.maxReplyBytes} bytes` };
        }
        chunks.push(chunk as Buffer);
      }
      const contentType = response.headers['content-type'];
      return {
        kind: 'reply',
        status: response.statusCode,
        contentType: Array.isArray(contentType) ? contentType[0] : contentType,
        body: Buffer.concat(chunks, size).toString('utf8'),
      };
    } catch (error) {
      return classifyFailure(error, signal.aborted, request.timeoutMillis);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function classifyFailure(error: unknown, timedOut: boolean, timeoutMillis: number): ToolHttpResponse {
  const code = (error as { code?: string }).code ?? '';
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { kind: 'failure', reason: 'timeout', detail: `no complete reply within ${timeoutMillis} ms` };
  }
  if (code === 'ECONNREFUSED') return { kind: 'failure', reason: 'connection_refused', detail: 'the tool service refused the connection' };
  return { kind: 'failure', reason: 'network', detail: `the call failed (${code || (error as Error).name})` };
}
