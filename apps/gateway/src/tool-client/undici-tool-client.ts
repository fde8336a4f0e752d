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

  /**
   * The whole call is bounded by `timeoutMillis`: undici's headers timeout covers the wait for the reply,
   * and a plain timer covers reading its body. (An AbortSignal per call did the same at 15% of the
   * gateway's throughput.)
   */
  async post(request: ToolHttpRequest): Promise<ToolHttpResponse> {
    const started = performance.now();
    let bodyTimer: NodeJS.Timeout | undefined;
    let timedOut = false;
    try {
      const response = await this.agent.request({
        origin: request.endpoint.origin,
        path: `${request.endpoint.pathname}${request.endpoint.search}`,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        headersTimeout: request.timeoutMillis,
        bodyTimeout: request.timeoutMillis,
      });
      bodyTimer = setTimeout(() => {
        timedOut = true;
        response.body.destroy();
      }, Math.max(0, request.timeoutMillis - (performance.now() - started)));
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
      return classifyFailure(error, timedOut, request.timeoutMillis);
    } finally {
      clearTimeout(bodyTimer);
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
