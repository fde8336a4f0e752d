import type { IncomingHttpHeaders } from 'node:http';

/**
 * DNS-rebinding protection (MCP transports spec, "Security Warning"): a browser tricked into calling the
 * gateway sends a foreign Host and Origin. Non-browser clients send no Origin, and are let through.
 */
export interface OriginPolicy {
  /** Host names (without port) accepted in the Host header; `*` accepts any. */
  readonly allowedHosts: readonly string[];
  /** Origins accepted when present: exact (`https://agents.example.com`) or with any port (`http://localhost:*`). */
  readonly allowedOrigins: readonly string[];
}

export const LOOPBACK_ORIGIN_POLICY: OriginPolicy = {
  allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
  allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'],
};

export type OriginCheck = { ok: true } | { ok: false; reason: string };

export function checkOrigin(headers: IncomingHttpHeaders, policy: OriginPolicy): OriginCheck {
  const host = hostName(headers.host);
  if (!policy.allowedHosts.includes('*') && (host === undefined || !policy.allowedHosts.includes(host))) {
    return { ok: false, reason: 'Host header not allowed' };
  }
  const origin = headers.origin;
  if (origin !== undefined && !policy.allowedOrigins.some((allowed) => originMatches(origin, allowed))) {
    return { ok: false, reason: 'Origin not allowed' };
  }
  return { ok: true };
}

/** `example.com:8080` → `example.com`; `[::1]:8080` → `[::1]`. */
function hostName(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host.toLowerCase());
  return match?.[1];
}

function originMatches(origin: string, allowed: string): boolean {
  if (allowed === '*') return true;
  if (!allowed.endsWith(':*')) return origin.toLowerCase() === allowed.toLowerCase();
  const prefix = allowed.slice(0, -2).toLowerCase();
  const lower = origin.toLowerCase();
  return lower === prefix || (lower.startsWith(`${prefix}:`) && /^\d+$/.test(lower.slice(prefix.length + 1)));
}
