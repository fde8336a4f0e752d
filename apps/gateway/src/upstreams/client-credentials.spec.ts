import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Agent } from 'undici';

import { GatewayErrorCode } from '../errors/gateway-errors';
import { ClientCredentialsToken } from './client-credentials';

/**
 * The client credentials token against a token endpoint on loopback that counts its requests and answers
 * as each test sets: one token for many requests, a new one shortly before expiry and after a 401, one
 * request for concurrent needs, and refusals that name the code but never the secret.
 */
describe('ClientCredentialsToken', () => {
  let server: Server;
  let tokenUrl: URL;
  let dispatcher: Agent;
  let issued: number;
  let received: Array<{ authorization: string | undefined; form: URLSearchParams }>;
  /** What the endpoint answers: status and body; the access token is `token-<n>` unless the body says otherwise. */
  let answer: (n: number) => { status: number; body: Record<string, unknown> };
  let clock: number;

  beforeAll(async () => {
    dispatcher = new Agent();
    server = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      received.push({ authorization: req.headers.authorization, form: new URLSearchParams(text) });
      issued += 1;
      const { status, body } = answer(issued);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    tokenUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/token`);
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dispatcher.close();
  });

  beforeEach(() => {
    issued = 0;
    received = [];
    clock = 1_000_000;
    answer = (n) => ({ status: 200, body: { access_token: `token-${n}`, token_type: 'Bearer', expires_in: 3600 } });
  });

  const tokenFor = (clientSecret: () => string | undefined = () => 's3cret: with+odd chars') =>
    new ClientCredentialsToken(
      { tokenUrl, clientId: 'front gw', clientSecret, scope: 'tools', resource: 'https://mcp.example/mcp', timeoutMillis: 5_000 },
      dispatcher,
      () => clock,
    );

  it('asks with the client credentials grant and HTTP Basic, and reuses the token until shortly before it expires', async () => {
    const token = tokenFor();
    expect(await token.authorization()).toBe('Bearer token-1');
    expect(received[0].form.get('grant_type')).toBe('client_credentials');
    expect(received[0].form.get('scope')).toBe('tools');
    expect(received[0].form.get('resource')).toBe('https://mcp.example/mcp');
    // RFC 6749 §2.3.1: id and secret each form-encoded, then joined and Base64-encoded.
    const basic = Buffer.from((received[0].authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    expect(basic).toBe('front+gw:s3cret%3A+with%2Bodd+chars');

    clock += 3_000_000; // 50 minutes: still well within the hour
    expect(await token.authorization()).toBe('Bearer token-1');
    clock += 580_000; // 20 s before expiry
    expect(await token.authorization()).toBe('Bearer token-2');
    expect(issued).toBe(2);
  });

  it('fetches a new token after a 401, once for concurrent needs', async () => {
    const token = tokenFor();
    expect(await token.authorization()).toBe('Bearer token-1');
    await Promise.all([token.challenged({ status: 401, wwwAuthenticate: 'Bearer error="invalid_token"' }), token.authorization()]);
    expect(await token.authorization()).toBe('Bearer token-2');
    expect(issued).toBe(2);
  });

  it('keeps a token without expires_in until the server refuses it', async () => {
    answer = (n) => ({ status: 200, body: { access_token: `token-${n}`, token_type: 'bearer' } });
    const token = tokenFor();
    await token.authorization();
    clock += 365 * 24 * 3_600_000;
    expect(await token.authorization()).toBe('Bearer token-1');
  });

  it("refuses with the authorization server's error code, never its secret, and cannot step up on a 403", async () => {
    answer = () => ({ status: 401, body: { error: 'invalid_client', error_description: 'client authentication failed' } });
    const failure = tokenFor().authorization();
    await expect(failure).rejects.toMatchObject({
      code: GatewayErrorCode.UpstreamTokenFailed,
      message: `no access token from ${tokenUrl.origin}/token: the token endpoint answered HTTP 401 (invalid_client)`,
    });
    await expect(tokenFor(() => undefined).authorization()).rejects.toThrow(
      /client secret \(mcpServer.oauth.clientSecret\) cannot be read/,
    );
    answer = () => ({ status: 200, body: { token_type: 'mac', access_token: 'x' } });
    await expect(tokenFor().authorization()).rejects.toThrow(/without a bearer access_token/);
    await expect(tokenFor().challenged({ status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope"' })).rejects.toMatchObject({
      code: GatewayErrorCode.UpstreamTokenFailed,
    });
  });
});
