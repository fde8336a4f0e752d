import http from 'node:http';
import https from 'node:https';
import got, { type Got } from 'got';
import { errorMessage } from '@toolmesh/protocol';
import { RegistryError } from '../errors';
import { FileJsonSource } from './file-json-source';
import { MANIFEST_DOCUMENT, type DocumentKind, type JsonSource } from '../model/json-source';

export interface HttpJsonSourceOptions {
  timeoutMillis: number;
  maxBytes: number;
}

/**
 * One keep-alive client for all catalogue fetches (portal, manifests, routing hints), apart from the
 * tool-call pool (SPEC G11), so slow catalogue endpoints never take connections from tool calls.
 */
const catalogueClient: Got = got.extend({
  agent: { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) },
  retry: { limit: 0 },
  headers: { accept: 'application/json' },
});

export class HttpJsonSource implements JsonSource {
  constructor(
    private readonly url: URL,
    private readonly options: HttpJsonSourceOptions,
    private readonly kind: DocumentKind = MANIFEST_DOCUMENT,
  ) {}

  get location(): string {
    return `${this.url.origin}${this.url.pathname}`;
  }

  async fetch(): Promise<unknown> {
    const request = catalogueClient(this.url, { timeout: { request: this.options.timeoutMillis } });
    request.on('downloadProgress', (progress) => {
      if (progress.transferred > this.options.maxBytes) request.cancel(`${this.kind.label} larger than ${this.options.maxBytes} bytes`);
    });
    let body: string;
    try {
      body = await request.text();
    } catch (error) {
      throw new RegistryError(this.kind.unreachable, `${this.kind.label} ${this.location}: ${errorMessage(error)}`, { cause: error });
    }
    try {
      return JSON.parse(body);
    } catch (error) {
      throw new RegistryError(this.kind.invalid, `${this.kind.label} ${this.location} is not JSON`, { cause: error });
    }
  }
}

/** `file:` locations (URL or relative path, as the seed's `file:./config/...`) read a file; others fetch over HTTP. */
export function jsonSourceAt(location: string, kind: DocumentKind, options: HttpJsonSourceOptions): JsonSource {
  if (location.startsWith('file:')) {
    const path = location.startsWith('file://') ? new URL(location).pathname : location.slice('file:'.length);
    return new FileJsonSource(path, kind);
  }
  return new HttpJsonSource(new URL(location), options, kind);
}
