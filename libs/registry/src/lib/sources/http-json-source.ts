import { hash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

import { errorMessage, printable } from '@toolmesh/protocol';
import got, { type Got, RequestError, type Response } from 'got';

import { RegistryError } from '../errors';
import { type DocumentKind, type JsonSource, MANIFEST_DOCUMENT } from '../model/json-source';
import { documentTooLarge } from './document-size-cap';
import { FileJsonSource } from './file-json-source';
import { parseDocument } from './parse-document';
import type { YamlLimits } from './yaml-limits';

export interface HttpJsonSourceOptions {
  timeoutMillis: number;
  maxBytes: number;
  /** The setting `maxBytes` comes from, named when a document is over it; `mcp.catalogue.maxManifestBytes` unless given. */
  maxBytesSetting?: string;
  /** For a kind that may be YAML; the registry's defaults when absent. */
  yaml?: YamlLimits;
}

/**
 * One keep-alive client for all catalogue fetches (portal, manifests, routing hints), apart from the
 * tool-call pool (SPEC G11), so slow catalogue endpoints never take connections from tool calls.
 * Redirects are followed only within the origin first asked: a tool service cannot hand its route's
 * catalogue to another host (docs/manifest-format.md).
 */
const catalogueClient: Got = got.extend({
  agent: { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) },
  retry: { limit: 0 },
  headers: { accept: 'application/json' },
  hooks: {
    beforeRedirect: [
      (options, response) => {
        const from = new URL(response.url).origin;
        const to = options.url instanceof URL ? options.url.origin : new URL(String(options.url)).origin;
        if (to !== from) throw new Error(`redirected to another origin (${printable(to)}), which is never followed`);
      },
    ],
  },
});

/** The last document read, and what identifies it: its bytes' digest and the validators it was served with. */
interface LastDocument {
  readonly document: unknown;
  readonly digest: string;
  readonly etag?: string;
  readonly lastModified?: string;
}

/** A validator worth sending back: printable ASCII of a sane length, as a header value may be. */
const VALIDATOR = /^[\x20-\x7E]{1,256}$/;

/**
 * A document over HTTP, refetched at every refresh but read only when it changed: the next request is
 * conditional on the last answer's `ETag` (`If-None-Match`) and `Last-Modified` (`If-Modified-Since`),
 * so a service that supports them answers 304 with no body; a service that does not sends the body, and
 * when its SHA-256 is the last one's it is not parsed again. Either way the very same document object is
 * returned, which tells the route loader that nothing needs building (route-loader.ts).
 */
export class HttpJsonSource implements JsonSource {
  constructor(
    private readonly url: URL,
    private readonly options: HttpJsonSourceOptions,
    private readonly kind: DocumentKind = MANIFEST_DOCUMENT,
  ) {}

  /** Where the last successful fetch was answered, when a (same-origin) redirect was followed. */
  private answeredAt: URL | undefined;
  private last: LastDocument | undefined;

  get location(): string {
    return locationOf(this.url);
  }

  get servedFrom(): string | undefined {
    return this.answeredAt && locationOf(this.answeredAt);
  }

  async fetch(): Promise<unknown> {
    const last = this.last;
    let response: Response<string>;
    try {
      response = await this.download(last).catch((error: unknown) => {
        if (!isResetBeforeReply(error)) throw error;
        return this.download(last); // once: a second reset is the service's, not the pool's
      });
      if (response.statusCode === 304 && last === undefined)
        throw new Error('answered 304 Not Modified to a request that named no version');
    } catch (error) {
      if (error instanceof RegistryError) throw error; // too large: said as such, not as unreachable
      throw new RegistryError(this.kind.unreachable, `${this.kind.label} ${this.location}: ${errorMessage(error)}`, { cause: error });
    }
    const answeredAt = new URL(response.url);
    this.answeredAt = answeredAt.href === this.url.href ? undefined : answeredAt;
    if (response.statusCode === 304) return (last as LastDocument).document;
    const digest = hash('sha256', response.body, 'base64url');
    const document =
      digest === last?.digest
        ? last.document
        : parseDocument(response.body, this.kind, `${this.kind.label} ${this.location}`, this.options.yaml);
    const { etag, 'last-modified': lastModified } = response.headers;
    this.last = {
      document,
      digest,
      ...(etag !== undefined && VALIDATOR.test(etag) && { etag }),
      ...(lastModified !== undefined && VALIDATOR.test(lastModified) && { lastModified }),
    };
    return document;
  }

  private download(last: LastDocument | undefined): Promise<Response<string>> {
    const request = catalogueClient(this.url, {
      timeout: { request: this.options.timeoutMillis },
      headers: {
        ...(this.kind.yaml && { accept: 'application/json, application/yaml;q=0.9, */*;q=0.1' }),
        ...(last?.etag !== undefined && { 'if-none-match': last.etag }),
        ...(last?.lastModified !== undefined && { 'if-modified-since': last.lastModified }),
      },
    });
    // Stopped at the announced length when it is over the cap, else at the first byte past it; got's own
    // error then says only "Promise was canceled", so the size and the setting are told instead.
    let tooLarge: RegistryError | undefined;
    const cap = { maxBytes: this.options.maxBytes, setting: this.options.maxBytesSetting ?? 'mcp.catalogue.maxManifestBytes' };
    // on() returns the request itself (a promise), which is awaited below
    void request.on('downloadProgress', ({ transferred, total }) => {
      const announced = total !== undefined && total > cap.maxBytes;
      if (tooLarge !== undefined || (!announced && transferred <= cap.maxBytes)) return;
      tooLarge = documentTooLarge(`${this.kind.label} ${this.location}`, cap, announced ? total : transferred, announced);
      request.cancel();
    });
    return request.catch((error: unknown) => {
      throw tooLarge ?? error;
    });
  }
}

/**
 * A pooled keep-alive socket that the service closed while idle (its keep-alive timeout, e.g. the sample
 * service's 5 s, racing ours) fails the next GET with "socket hang up" before any reply byte. Nothing was
 * served, so one more GET on a fresh socket is safe; without it the change waited a whole TTL.
 */
function isResetBeforeReply(error: unknown): boolean {
  return error instanceof RequestError && error.code === 'ECONNRESET' && error.response === undefined;
}

/** A URL as logs and the status show it: no credentials, no query. */
function locationOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** `file:` locations (URL or relative path, as the seed's `file:./config/...`) read a file; others fetch over HTTP. */
export function jsonSourceAt(location: string, kind: DocumentKind, options: HttpJsonSourceOptions): JsonSource {
  if (location.startsWith('file:')) {
    const path = location.startsWith('file://') ? new URL(location).pathname : location.slice('file:'.length);
    return new FileJsonSource(path, kind, options.yaml);
  }
  return new HttpJsonSource(new URL(location), options, kind);
}
