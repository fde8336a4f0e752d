import {
  type CatalogueChangeChannel,
  type CatalogueLog,
  type DocumentSizeCap,
  FileJsonSource,
  HttpJsonSource,
  type HttpJsonSourceOptions,
  jsonSourceAt,
  LiveCatalogue,
  McpServerToolsSource,
  OPENAPI_DOCUMENT,
  type OpenApiSelection,
  PORTAL_DOCUMENT,
  PortalRouteDirectory,
  RedisChangeChannel,
  RedisSnapshotCache,
  type RouteConfig,
  type RouteDirectory,
  ROUTING_HINT_DOCUMENT,
  ROUTING_HINT_PATH,
  RoutingHints,
  type SnapshotCache,
  StaticRouteDirectory,
} from '@toolmesh/registry';

import type { BundleSettings, GatewayConfig, OpenApiBundleSettings } from '../config/gateway-config';
import type { PinnedDefinitions } from '../definitions/pinned-definitions';
import type { McpUpstreams } from '../upstreams/mcp-upstreams';

export interface CatalogueParts {
  readonly catalogue: LiveCatalogue;
  readonly routingHints: RoutingHints;
  readonly cache?: SnapshotCache;
  /** Catalogue changes between replicas, over the same Redis (SPEC G21). */
  readonly changes?: CatalogueChangeChannel;
}

/**
 * The live catalogue, its route directory (portal or `mcp.bundles`), the Redis cache and change channel, and
 * routing hints. `upstreams` lists the tools of the MCP server bundles; `definitions` reviews the documents
 * of the bundles whose changed definitions are warned of or held (issue 46).
 */
export function buildCatalogue(
  mcp: GatewayConfig['mcp'],
  log: CatalogueLog,
  now: () => number,
  upstreams: McpUpstreams,
  definitions?: PinnedDefinitions,
): CatalogueParts {
  const fetchLimits: HttpJsonSourceOptions = {
    timeoutMillis: mcp.catalogue.manifestTimeoutMillis,
    maxBytes: mcp.catalogue.maxManifestBytes,
    yaml: { maxDepth: mcp.catalogue.maxYamlDepth, maxNodes: mcp.catalogue.maxYamlNodes },
  };
  const cache = mcp.redis.url === undefined ? undefined : new RedisSnapshotCache({ ...mcp.redis, url: mcp.redis.url, log });
  const directory: RouteDirectory =
    mcp.portal.registryUrl === undefined
      ? new StaticRouteDirectory(
          mcp.bundles.map((bundle) =>
            reviewed(bundleRoute(bundle, fetchLimits, upstreams, mcp.catalogue.maxOpenApiDocumentBytes), definitions),
          ),
        )
      : new PortalRouteDirectory({
          source: jsonSourceAt(mcp.portal.registryUrl, PORTAL_DOCUMENT, fetchLimits),
          routes: { fetch: fetchLimits, ...(mcp.portal.namePrefix !== undefined && { namePrefix: mcp.portal.namePrefix }) },
          ttlMillis: mcp.portal.refreshTtlMillis,
          cache,
          log,
          now,
        });
  const catalogue = new LiveCatalogue({
    directory,
    limits: mcp.catalogue,
    manifestTtlMillis: mcp.catalogue.refreshTtlMillis,
    forcedRefreshCooldownMillis: mcp.catalogue.forcedRefreshCooldownMillis,
    requestedRefreshIntervalMillis: mcp.catalogue.requestedRefreshIntervalMillis,
    cache,
    log,
    now,
  });
  const routingHints = new RoutingHints({ routes: () => directory.routes(), ttlMillis: mcp.routingHints.refreshTtlMillis, log, now });
  const changes = mcp.redis.url === undefined ? undefined : new RedisChangeChannel({ ...mcp.redis, url: mcp.redis.url, log });
  return { catalogue, routingHints, ...(cache && { cache }), ...(changes && { changes }) };
}

/** The route with its documents reviewed for changed definitions, when its bundle's policy asks for it. */
function reviewed(route: RouteConfig, definitions: PinnedDefinitions | undefined): RouteConfig {
  if (definitions === undefined) return route;
  return {
    ...route,
    services: route.services.map((service) => ({ ...service, manifest: definitions.source(route.token, service.manifest) })),
  };
}

/** An `mcp.bundles` entry as a route of one tool service; the bundle's name is the route token. */
function bundleRoute(
  bundle: BundleSettings,
  fetchLimits: HttpJsonSourceOptions,
  upstreams: McpUpstreams,
  maxOpenApiDocumentBytes: number,
): RouteConfig {
  if (bundle.mcpServer !== undefined) return mcpServerRoute(bundle, upstreams);
  // Every other bundle has its serviceDomain (load-config.ts checks it).
  const domain = (bundle.serviceDomain ?? '').replace(/\/+$/, '');
  if (bundle.openapi !== undefined) {
    const sizeCap =
      bundle.openapi.maxDocumentBytes === undefined
        ? { maxBytes: maxOpenApiDocumentBytes, setting: 'mcp.catalogue.maxOpenApiDocumentBytes, MCP_CATALOGUE_MAX_OPENAPI_DOCUMENT_BYTES' }
        : { maxBytes: bundle.openapi.maxDocumentBytes, setting: `openapi.maxDocumentBytes of bundle ${bundle.name}` };
    return openApiRoute(bundle, bundle.openapi, domain, fetchLimits, sizeCap);
  }
  const manifest =
    bundle.manifestFile !== undefined
      ? new FileJsonSource(bundle.manifestFile)
      : new HttpJsonSource(new URL(`${domain}${bundle.manifestPath}`), fetchLimits);
  return {
    token: bundle.name,
    services: [
      {
        serviceDomain: domain,
        manifest,
        ...(bundle.manifestFile === undefined && {
          routingHint: new HttpJsonSource(new URL(`${domain}${ROUTING_HINT_PATH}`), fetchLimits, ROUTING_HINT_DOCUMENT),
        }),
      },
    ],
    ...(bundle.namePrefix !== undefined && { namePrefix: bundle.namePrefix }),
    ...(bundle.fallbackManifestFile !== undefined && { fallback: new FileJsonSource(bundle.fallbackManifestFile) }),
  };
}

/** An OpenAPI bundle (issue 27): its document instead of a manifest; no routing hint, which is our manifest format's. */
function openApiRoute(
  bundle: BundleSettings,
  openapi: OpenApiBundleSettings,
  domain: string,
  fetchLimits: HttpJsonSourceOptions,
  sizeCap: DocumentSizeCap,
): RouteConfig {
  const document =
    openapi.documentFile !== undefined
      ? new FileJsonSource(openapi.documentFile, OPENAPI_DOCUMENT, fetchLimits.yaml, sizeCap)
      : new HttpJsonSource(
          new URL(openapi.documentUrl ?? domain),
          { ...fetchLimits, maxBytes: sizeCap.maxBytes, maxBytesSetting: sizeCap.setting },
          OPENAPI_DOCUMENT,
        );
  return {
    token: bundle.name,
    services: [{ serviceDomain: domain, manifest: document, openapi: openApiSelection(openapi) }],
    ...(bundle.namePrefix !== undefined && { namePrefix: bundle.namePrefix }),
  };
}

/**
 * An MCP server bundle (issue 28): its tools/list instead of a manifest, its URL as its tools' endpoint; no
 * routing hint and no fallback manifest, which are our manifest format's.
 */
function mcpServerRoute(bundle: BundleSettings, upstreams: McpUpstreams): RouteConfig {
  const lister = upstreams.lister(bundle.name);
  return {
    token: bundle.name,
    services: [{ serviceDomain: lister.location, manifest: new McpServerToolsSource(lister), mcpServer: true }],
    ...(bundle.namePrefix !== undefined && { namePrefix: bundle.namePrefix }),
  };
}

/** `operations` may be one comma-separated string, as an environment variable gives it. */
export function openApiSelection(
  openapi: Pick<OpenApiBundleSettings, 'operations' | 'tags' | 'timeoutMillis' | 'names' | 'outputSchemas'>,
): OpenApiSelection {
  const operations = typeof openapi.operations === 'string' ? openapi.operations.split(',') : (openapi.operations ?? []);
  return {
    operations: operations.map((operation) => operation.trim()).filter((operation) => operation !== ''),
    tags: openapi.tags ?? [],
    ...(openapi.timeoutMillis !== undefined && { timeoutMillis: openapi.timeoutMillis }),
    ...(openapi.names !== undefined && { names: openapi.names }),
    ...(openapi.outputSchemas !== undefined && { outputSchemas: openapi.outputSchemas }),
  };
}
