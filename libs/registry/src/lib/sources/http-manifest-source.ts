import http from 'node:http';
import https from 'node:https';
import got, { type Got } from 'got';
import { RegistryError, RegistryErrorCode } from '../errors';
import type { ManifestSource } from './manifest-source';

export interface HttpManifestSourceOptions {
  timeoutMillis: number;
  maxBytes: number;
}

/**
 * One keep-alive client for all catalogue fetches, apart from the tool-call pool (SPEC G11), so slow
 * manifest endpoints never take connections from tool calls.
 */
const catalogueClient: Got = got.extend({
  agent: { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) },
  retry: { limit: 0 },
  headers: { accept: 'application/json' },
});

export class HttpManifestSource implements ManifestSource {
  constructor(
    private readonly url: URL,
    private readonly options: HttpManifestSourceOptions,
  ) {}

  get location(): string {
    return `${this.url.origin}${this.url.pathname}`;
  }

  async fetch(): Promise<unknown> {
    const request = catalogueClient(this.url, { timeout: { request: this.options.timeoutMillis } });
    request.on('downloadProgress', (progress) => {
      if (progress.transferred > this.options.maxBytes) request.cancel(`manifest larger than ${this.options.maxBytes} bytes`);
    });
    let body: string;
    try {
      body = await request.text();
    } catch (error) {
      throw new RegistryError(RegistryErrorCode.ManifestUnreachable, `manifest ${this.location}: ${(error as Error).message}`, { cause: error });
    }
    try {
      return JSON.parse(body);
    } catch (error) {
      throw new RegistryError(RegistryErrorCode.ManifestInvalid, `manifest ${this.location} is not JSON`, { cause: error });
    }
  }
}
