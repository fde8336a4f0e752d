import { isIP } from 'node:net';

import type { FetchLike } from '@modelcontextprotocol/client';

import { AgentError, AgentErrorCode } from '../../errors/agent-errors';

/** Each discovery, registration and token request; the SDK's own fetch sets none. */
const AUTH_REQUEST_TIMEOUT_MS = 30_000;
/** The most an OAuth response (metadata, a registration, tokens) may be: real ones are a few KiB. */
const AUTH_RESPONSE_MAX_BYTES = 256 * 1024;
const MAX_REDIRECTS = 5;

/**
 * Whether an OAuth step may go to `url`: https anywhere, plain http only to this machine (RFC 8252 §8.3's
 * loopback, where nothing crosses a network). A credential, a code or a client secret never travels in
 * the clear to another host, whichever step sends it.
 */
export function assertOAuthTransport(url: URL, step: string): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return;
  throw new AgentError(
    AgentErrorCode.OAuthFailed,
    `refused to ${step} at ${url.origin}: OAuth goes over https, or over http only to this machine (127.0.0.1, ::1, localhost)`,
  );
}

/** This machine's names and addresses (127.0.0.0/8, ::1, localhost and its subdomains), where plain http crosses no network. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/**
 * The fetch every OAuth request of the SDK's `auth()` goes through (discovery, registration, token and
 * refresh): each hop, redirects included, held to `assertOAuthTransport`; each bounded in time; each
 * response read up to AUTH_RESPONSE_MAX_BYTES and refused beyond, so a hostile server cannot fill the
 * memory with a token response.
 */
export const oauthFetch: FetchLike = async (input, init) => {
  let url = new URL(input instanceof Request ? input.url : String(input));
  const signal = init?.signal ?? AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS);
  for (let hop = 0; ; hop++) {
    assertOAuthTransport(url, 'send an OAuth request');
    const response = await fetch(url, { ...init, signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null && hop < MAX_REDIRECTS) {
      await response.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    return bounded(response, url);
  }
};

async function bounded(response: Response, url: URL): Promise<Response> {
  const tooLarge = () =>
    new AgentError(
      AgentErrorCode.OAuthFailed,
      `the OAuth response from ${url.origin} is larger than ${AUTH_RESPONSE_MAX_BYTES / 1024} KiB; refused`,
    );
  if (Number(response.headers.get('content-length') ?? 0) > AUTH_RESPONSE_MAX_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > AUTH_RESPONSE_MAX_BYTES) throw tooLarge(); // leaving the loop cancels the stream
      chunks.push(chunk);
    }
  }
  // The body is already decoded: its original length and encoding no longer describe it.
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(response.status === 204 || response.status === 304 ? null : Buffer.concat(chunks), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
