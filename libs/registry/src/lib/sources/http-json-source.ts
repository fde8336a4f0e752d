import http from 'node:http';
import https from 'node:https';

import { errorMessage, printable } from '@toolmesh/protocol';
import got, { type Got, RequestError, type Response } from 'got';

import { RegistryError } from '../errors';
import { type DocumentKind, type JsonSource, MANIFEST_DOCUMENT } from '../model/json-source';
import { FileJsonSource } from './file-json-source';
import { parseDocument } from './parse-document';
import type { YamlLimits } from './yaml-limits';

export interface HttpJsonSourceOptions {
  timeoutMillis: number;
  maxBytes: number;
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

export class HttpJsonSource implements JsonSource {
  constructor(
    private readonly url: URL,
    private readonly options: HttpJsonSourceOptions,
    private readonly kind: DocumentKind = MANIFEST_DOCUMENT,
  ) {}

  /** Where the last successful fetch was answered, when a (same-origin) redirect was followed. */
  private answeredAt: URL | undefined;

  get location(): string {
    return locationOf(this.url);
  }

  get servedFrom(): string | undefined {
    return this.answeredAt && locationOf(this.answeredAt);
  }

  async fetch(): Promise<unknown> {
    let body: string;
    let answeredAt: URL;
    try {
      const response = await this.download().catch((error: unknown) => {
        if (!isResetBeforeReply(error)) throw error;
        return this.download(); // once: a second reset is the service's, not the pool's
      });
      body = response.body;
      answeredAt = new URL(response.url);
    } catch (error) {
      throw new RegistryError(this.kind.unreachable, `${this.kind.label} ${this.location}: ${errorMessage(error)}`, { cause: error });
    }
    const document = parseDocument(body, this.kind, `${this.kind.label} ${this.location}`, this.options.yaml);
    this.answeredAt = answeredAt.href === this.url.href ? undefined : answeredAt;
    return document;
  }

  private download(): Promise<Response<string>> {
    const request = catalogueClient(this.url, {
      timeout: { request: this.options.timeoutMillis },
      ...(this.kind.yaml && { headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.1' } }),
    });
    // on() returns the request itself (a promise), which request.text() below awaits
    void request.on('downloadProgress', (progress) => {
      if (progress.transferred > this.options.maxBytes) request.cancel(`${this.kind.label} larger than ${this.options.maxBytes} bytes`);
    });
    return request;
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
