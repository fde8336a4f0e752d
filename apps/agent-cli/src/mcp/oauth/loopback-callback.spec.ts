import { request } from 'undici';

import { AgentErrorCode } from '../../errors/agent-errors';
import { LoopbackCallback } from './loopback-callback';

/** The sign-in redirect listener on 127.0.0.1: it takes its own response only, and says little. */
async function get(url: string): Promise<{ status: number; body: string }> {
  const response = await request(url);
  return { status: response.statusCode, body: await response.body.text() };
}

describe('LoopbackCallback', () => {
  it('listens on 127.0.0.1 on a port of its own and takes the response that carries its state', async () => {
    const callback = await LoopbackCallback.listen('state-1');
    expect(callback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    expect((await get(`${callback.redirectUrl}?code=x&state=someone-else`)).status).toBe(400);
    expect((await get(callback.redirectUrl.replace('/callback', '/other?code=x&state=state-1'))).status).toBe(404);
    const answer = await get(`${callback.redirectUrl}?code=the-code&state=state-1&iss=${encodeURIComponent('https://as.example.com')}`);

    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Signed in');
    await expect(callback.response).resolves.toEqual({ code: 'the-code', iss: 'https://as.example.com' });
    callback.close();
  });

  it('ends the wait on an error response, repeating only an error code of the expected form', async () => {
    const callback = await LoopbackCallback.listen('s');
    await get(`${callback.redirectUrl}?state=s&error=access_denied&error_description=${encodeURIComponent('<script>forged</script>')}`);
    await expect(callback.response).rejects.toMatchObject({
      code: AgentErrorCode.OAuthFailed,
      message: 'the authorization server refused the sign-in: access_denied',
    });
    callback.close();
  });

  it('ends a wait nobody answered when closed, and stops listening', async () => {
    const callback = await LoopbackCallback.listen('s');
    callback.close();
    await expect(callback.response).rejects.toMatchObject({ code: AgentErrorCode.OAuthFailed });
    await expect(get(`${callback.redirectUrl}?code=x&state=s`)).rejects.toThrow();
  });

  it('says which port it could not take', async () => {
    const first = await LoopbackCallback.listen('s');
    const port = Number(new URL(first.redirectUrl).port);
    await expect(LoopbackCallback.listen('s', port)).rejects.toMatchObject({
      code: AgentErrorCode.OAuthFailed,
      message: expect.stringContaining(`127.0.0.1:${port}: EADDRINUSE`),
    });
    first.close();
  });
});
