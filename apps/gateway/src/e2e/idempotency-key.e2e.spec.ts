import { useGatewayWithSampleService } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

/** SPEC N7: every forwarded tool call carries an Idempotency-Key that a client's retry of the same call repeats. */
describe('Idempotency-Key on forwarded tool calls', () => {
  const { gateway, tools } = useGatewayWithSampleService();
  beforeEach(() => tools().clearCalls());

  /** The keys the tool service received, in call order. */
  const receivedKeys = async () => (await tools().calls()).map((call) => call.headers['idempotency-key']);

  const legacyCall = (id: number, text: string, headers: Record<string, string>) =>
    gateway().post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo_text', arguments: { text } } }, headers);

  const modernCall = (id: number, params: Record<string, unknown>, guid: string, headers: Record<string, string> = {}) =>
    gateway().post(
      { jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: MODERN_META } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': params.name as string, guid, ...headers },
    );

  it('2025: the same id in the same session reaches the tool service with the same key; another id or session with another', async () => {
    const session = { 'mcp-session-id': 'session-a1' };
    for (const response of [
      await legacyCall(7, 'order', session),
      await legacyCall(7, 'order', session), // the client's retry
      await legacyCall(8, 'order', session),
      await legacyCall(7, 'order', { 'mcp-session-id': 'session-b2' }),
    ]) {
      expect(response.status).toBe(200);
    }
    const [first, retry, nextCall, otherSession] = await receivedKeys();
    expect(first).toMatch(/^"[A-Za-z0-9_-]{43}"$/); // a Structured Field string, as the IETF draft has it
    expect(retry).toBe(first);
    expect(new Set([first, nextCall, otherSession]).size).toBe(3);
  });

  it('2025 without a session: the guid scopes the id', async () => {
    await legacyCall(1, 'x', { guid: 'guid-1' });
    await legacyCall(1, 'x', { guid: 'guid-1' });
    await legacyCall(1, 'x', { guid: 'guid-2' });
    const [first, retry, other] = await receivedKeys();
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
  });

  it('2026-07-28: a retry with a new id is the same call; other arguments, another guid or the next MRTR round are not', async () => {
    await modernCall(1, { name: 'echo_text', arguments: { text: 'order' } }, 'guid-9');
    await modernCall(2, { name: 'echo_text', arguments: { text: 'order' } }, 'guid-9'); // re-issued with a new id, as the revision asks
    await modernCall(3, { name: 'echo_text', arguments: { text: 'other' } }, 'guid-9');
    await modernCall(4, { name: 'echo_text', arguments: { text: 'order' } }, 'guid-10');
    await modernCall(5, { name: 'test_streaming_elicitation', arguments: {} }, 'guid-9');
    const answered = {
      name: 'test_streaming_elicitation',
      arguments: {},
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
    };
    await modernCall(6, answered, 'guid-9');
    await modernCall(7, answered, 'guid-9');
    const [first, retry, otherArguments, otherGuid, round1, round2, round2Retry] = await receivedKeys();
    expect(retry).toBe(first);
    expect(round2Retry).toBe(round2);
    expect(new Set([first, otherArguments, otherGuid, round1, round2]).size).toBe(5);
  });

  it('two callers sending the same session, id and arguments (other employee numbers) get two keys; each retry its own', async () => {
    const as = (employee: string) => ({ 'mcp-session-id': 'session-shared', 'employee-no': employee });
    await legacyCall(11, 'order', as('E100'));
    await legacyCall(11, 'order', as('E200'));
    await legacyCall(11, 'order', as('E100'));
    await modernCall(12, { name: 'echo_text', arguments: { text: 'order' } }, 'guid-shared');
    await modernCall(13, { name: 'echo_text', arguments: { text: 'order' } }, 'guid-shared', { 'employee-no': 'E200' });
    const [first, other, retry, modern, modernOther] = await receivedKeys();
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
    expect(modernOther).not.toBe(modern);
  });

  it('never carries a session id or an argument value as such', async () => {
    await legacyCall(3, 'secret-argument-value', { 'mcp-session-id': 'session-visible' });
    const [key] = await receivedKeys();
    expect(key).not.toContain('session-visible');
    expect(key).not.toContain('secret-argument-value');
  });
});

/** With `auth`, the verified token says whose call it is: nothing a caller sends can give it another's key. */
describe('Idempotency-Key of authenticated callers', () => {
  const AUDIENCE = 'https://gateway.test.invalid/mcp';
  let issuer: TokenIssuer;
  beforeAll(async () => {
    issuer = await startTokenIssuer(AUDIENCE);
  });
  afterAll(() => issuer?.close());
  const { gateway, tools } = useGatewayWithSampleService((config) => {
    config.auth = {
      ...authTrusting(issuer, AUDIENCE),
      algorithms: ['RS256'],
      maxCachedTokens: 100,
    };
  });

  it("two subjects sending the same session, guid, id and arguments get two keys; a subject's retry, with a new token, its own", async () => {
    const call = async (subject: string) =>
      gateway().post(
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo_text', arguments: { text: 'order' } } },
        {
          authorization: `Bearer ${await issuer.sign({ sub: subject, jti: String(Math.random()) })}`,
          'mcp-session-id': 's-1',
          guid: 'g-1',
        },
      );
    await tools().clearCalls();
    for (const subject of ['alice', 'mallory', 'alice']) expect((await call(subject)).status).toBe(200);
    const [alice, mallory, aliceRetry] = (await tools().calls()).map((received) => received.headers['idempotency-key']);
    expect(aliceRetry).toBe(alice);
    expect(mallory).not.toBe(alice);
  });
});
