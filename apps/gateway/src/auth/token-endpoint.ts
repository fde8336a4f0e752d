import { errorMessage, printable } from '@toolmesh/protocol';
import { type Dispatcher, request } from 'undici';

/** A token is fetched anew this long before it expires (at most half its life), so none lapses in flight. */
const RENEW_BEFORE_EXPIRY_MILLIS = 30_000;
/** A token response is small; a larger one is refused. */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** The gateway as a confidential client of an authorization server's token endpoint (client_secret_basic). */
export interface TokenEndpointClient {
  readonly tokenUrl: URL;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The deadline of one token request. */
  readonly timeoutMillis: number;
}

/** A bearer access token and when to fetch the next one (never, when the server said no `expires_in`). */
export interface IssuedToken {
  readonly value: string;
  readonly renewAt: number;
  /** When it expires (ms), when the server said (`expires_in`). */
  readonly expiresAt?: number;
  /** What else a code or refresh grant answers with (issue 48's consent flow). */
  readonly refreshToken?: string;
  readonly idToken?: string;
  readonly scope?: string;
}

/**
 * One token request (RFC 6749 §3.2: a form POST, the client authenticated with HTTP Basic) whose grant is
 * `form`'s, answered with a bearer access token. Throws an Error saying why not: unreachable, the server's
 * `error` code (never its description, which may quote what was sent), or no bearer token in the answer.
 * Neither the secret nor any token is in a message.
 */
export async function requestToken(
  client: TokenEndpointClient,
  form: URLSearchParams,
  dispatcher: Dispatcher,
  now: () => number,
): Promise<IssuedToken> {
  const { tokenUrl, clientId, clientSecret, timeoutMillis } = client;
  // RFC 6749 §2.3.1: each part form-encoded before the two are joined.
  const basic = Buffer.from(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`).toString('base64');
  let status: number;
  let text: string;
  try {
    const response = await request(tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      dispatcher,
      signal: AbortSignal.timeout(timeoutMillis),
    });
    status = response.statusCode;
    text = await readBounded(response.body);
  } catch (error) {
    throw new Error(`the token request failed: ${errorMessage(error)}`, { cause: error });
  }
  const answer = parseObject(text);
  if (status !== 200) {
    const code = typeof answer?.error === 'string' ? ` (${printable(answer.error, 64)})` : '';
    throw new TokenRequestRefused(`the token endpoint answered HTTP ${status}${code}`, status);
  }
  const token = answer?.access_token;
  const type = answer?.token_type;
  if (typeof token !== 'string' || token === '' || (typeof type === 'string' && type.toLowerCase() !== 'bearer')) {
    throw new Error('the token endpoint answered without a bearer access_token');
  }
  const lifeMillis = typeof answer?.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in * 1000 : undefined;
  const renewAt =
    lifeMillis === undefined ? Number.POSITIVE_INFINITY : now() + lifeMillis - Math.min(RENEW_BEFORE_EXPIRY_MILLIS, lifeMillis / 2);
  return {
    value: token,
    renewAt,
    ...(lifeMillis !== undefined && { expiresAt: now() + lifeMillis }),
    ...(typeof answer?.refresh_token === 'string' && { refreshToken: answer.refresh_token }),
    ...(typeof answer?.id_token === 'string' && { idToken: answer.id_token }),
    ...(typeof answer?.scope === 'string' && { scope: answer.scope }),
  };
}

/** The token endpoint answered with an error status: the request was refused, not lost (`status` says how). */
export class TokenRequestRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

function formEncoded(text: string): string {
  return new URLSearchParams({ t: text }).toString().slice(2);
}

async function readBounded(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TOKEN_RESPONSE_BYTES) {
      body.destroy();
      throw new Error(`its answer is larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
