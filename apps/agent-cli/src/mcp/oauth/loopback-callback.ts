import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';
import { PROGRAM } from '../../program-name';

/** What the authorization server sent back to the redirect URI (RFC 6749 §4.1.2, RFC 9207). */
export interface AuthorizationResponse {
  readonly code: string;
  /** The `iss` parameter, when the server sent one; the SDK checks it against the issuer. */
  readonly iss: string | undefined;
}

const CALLBACK_PATH = '/callback';

/**
 * The redirect URI of a native app (RFC 8252 §7.3): an HTTP listener on 127.0.0.1, on the port the
 * OS picks unless one is configured, that takes exactly one authorization response carrying our
 * `state`, answers the browser with a short page, and stops listening. Other paths get 404, and a
 * response with another state is refused without ending the wait (it is not ours: RFC 6749 §10.12).
 */
export class LoopbackCallback {
  private constructor(
    private readonly server: Server,
    readonly redirectUrl: string,
    readonly response: Promise<AuthorizationResponse>,
    private readonly abandon: () => void,
  ) {}

  static async listen(state: string, port = 0): Promise<LoopbackCallback> {
    let settle!: { resolve: (r: AuthorizationResponse) => void; reject: (e: Error) => void };
    const response = new Promise<AuthorizationResponse>((resolve, reject) => (settle = { resolve, reject }));
    // The caller may stop waiting (close) before anyone came: that rejection is nobody's news.
    response.catch(() => undefined);
    const server = createServer((request, reply) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
        reply.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      const params = url.searchParams;
      if (params.get('state') !== state) {
        reply.writeHead(400, { 'content-type': 'text/plain' }).end('this sign-in response is not the one agent-cli is waiting for\n');
        return;
      }
      const code = params.get('code');
      // error_description is the authorization server's text and may be forged (a mix-up attacker's):
      // only the error code, which is from a fixed list, is repeated.
      const error = params.get('error');
      reply.setHeader('connection', 'close');
      if (code) {
        reply
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(page('Signed in. You can close this window and return to agent-cli.'));
        settle.resolve({ code, iss: params.get('iss') ?? undefined });
      } else {
        reply
          .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
          .end(page(`Sign-in did not complete. Return to ${PROGRAM} for details.`));
        const reason = error && /^[a-z_]{1,64}$/.test(error) ? `: ${error}` : '';
        settle.reject(new AgentError(AgentErrorCode.OAuthFailed, `the authorization server refused the sign-in${reason}`));
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new AgentError(
            AgentErrorCode.OAuthFailed,
            `cannot listen for the sign-in redirect on 127.0.0.1:${port}: ${error.code ?? error.message}`,
          ),
        ),
      );
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const { port: bound } = server.address() as AddressInfo;
    const abandon = () =>
      settle.reject(new AgentError(AgentErrorCode.OAuthFailed, 'the sign-in was abandoned before the browser came back'));
    return new LoopbackCallback(server, `http://127.0.0.1:${bound}${CALLBACK_PATH}`, response, abandon);
  }

  /** Stops listening; a wait still pending ends with an error. */
  close(): void {
    this.abandon();
    this.server.close();
    this.server.closeAllConnections();
  }
}

function page(text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>agent-cli</title><p>${text}</p>\n`;
}
