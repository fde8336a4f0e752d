import { readFileSync } from 'node:fs';

import type { BundleSettings, CredentialSource } from '../config/gateway-config';

/** A mounted secret is read again after this long, so a rotated one is used without a restart. */
const FILE_REREAD_MILLIS = 30_000;

/**
 * The secrets OpenAPI bundles' security schemes need (issue 27), by bundle and scheme: from environment
 * variables or mounted files the configuration names, never from the caller. Values are never logged,
 * and a secret that cannot be read is simply absent: the call is then refused naming the scheme only.
 */
export class ServiceCredentials {
  private readonly sources = new Map<string, ReadonlyMap<string, CredentialSource>>();
  private readonly files = new Map<string, { value: string | undefined; readAt: number }>();

  constructor(
    bundles: readonly BundleSettings[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly now: () => number = Date.now,
  ) {
    for (const bundle of bundles) {
      const credentials = bundle.openapi?.credentials;
      if (credentials !== undefined) this.sources.set(bundle.name, new Map(Object.entries(credentials)));
    }
  }

  /** The secret of `scheme` for the bundle (route) `routeToken`. */
  secret(routeToken: string, scheme: string): string | undefined {
    const source = this.sources.get(routeToken)?.get(scheme);
    if (source === undefined) return undefined;
    if ('env' in source) return this.env[source.env] || undefined;
    return this.fileSecret(source.file);
  }

  private fileSecret(path: string): string | undefined {
    const cached = this.files.get(path);
    if (cached !== undefined && this.now() - cached.readAt < FILE_REREAD_MILLIS) return cached.value;
    let value: string | undefined;
    try {
      // A mounted secret usually ends with a newline the service never meant.
      value = readFileSync(path, 'utf8').replace(/\r?\n$/, '') || undefined;
    } catch {
      value = undefined;
    }
    this.files.set(path, { value, readAt: this.now() });
    return value;
  }
}
