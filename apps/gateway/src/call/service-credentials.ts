import { readFileSync } from 'node:fs';

import type { BundleSettings, CredentialSource } from '../config/gateway-config';

/** A mounted secret is read again after this long, so a rotated one is used without a restart. */
const FILE_REREAD_MILLIS = 30_000;

/**
 * The secrets bundles send their tool services, by bundle and name: an OpenAPI bundle's security schemes
 * (issue 27), an MCP server bundle's headers and OAuth client secret (issue 28). From environment variables or mounted files the
 * configuration names, never from the caller. Values are never logged, and a secret that cannot be read
 * is simply absent: an OpenAPI call is then refused naming the scheme only, an MCP server gets no such header.
 */
export class ServiceCredentials {
  private readonly sources = new Map<string, ReadonlyMap<string, CredentialSource>>();
  /** The headers a bundle sends on every call, by bundle: an MCP server's, or an OpenAPI bundle's own (issue 45). */
  private readonly headerSources = new Map<string, ReadonlyMap<string, CredentialSource>>();
  private readonly files = new Map<string, { value: string | undefined; readAt: number }>();

  constructor(
    bundles: readonly BundleSettings[],
    private readonly env: NodeJS.ProcessEnv,
    private readonly now: () => number = Date.now,
  ) {
    for (const bundle of bundles) {
      const credentials = bundle.openapi?.credentials;
      if (credentials !== undefined) this.sources.set(bundle.name, new Map(Object.entries(credentials)));
      const headers = bundle.openapi?.headers ?? bundle.mcpServer?.headers;
      if (headers !== undefined) this.headerSources.set(bundle.name, new Map(Object.entries(headers)));
    }
  }

  /** The secret named `scheme` (a security scheme, a header) for the bundle (route) `routeToken`. */
  secret(routeToken: string, scheme: string): string | undefined {
    const source = this.sources.get(routeToken)?.get(scheme);
    return source === undefined ? undefined : this.read(source);
  }

  /** The secret at `source` now (an MCP server bundle's OAuth client secret); undefined when it cannot be read. */
  read(source: CredentialSource): string | undefined {
    if ('env' in source) return this.env[source.env] || undefined;
    return this.fileSecret(source.file);
  }

  /** The bundle's headers whose values can be read now, by name (an unreadable one is left out). */
  headers(routeToken: string): Record<string, string> {
    const named: Record<string, string> = {};
    for (const [name, source] of this.headerSources.get(routeToken) ?? []) {
      const value = this.read(source);
      if (value !== undefined) named[name] = value;
    }
    return named;
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
