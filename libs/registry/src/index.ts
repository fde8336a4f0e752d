// What the gateway (and its tests' fixtures) import from the catalogue, by name; everything else under lib/ is internal.
export { CatalogueGeneration, type ToolsListForm } from './lib/catalogue/catalogue-generation';
export { type CatalogueLog } from './lib/model/catalogue-log';
export { type ToolCatalogue } from './lib/catalogue/tool-catalogue';
export { publicToolIn, type ToolDefinition, type ToolOutput } from './lib/model/tool-definition';
export { type RouteConfig } from './lib/model/route';
export { LiveCatalogue, type RequestedRefresh } from './lib/catalogue/live-catalogue';
export { PORTAL_DOCUMENT, ROUTING_HINT_DOCUMENT } from './lib/model/json-source';
export { HttpJsonSource, jsonSourceAt } from './lib/sources/http-json-source';
export { FileJsonSource } from './lib/sources/file-json-source';
export { type RouteDirectory, StaticRouteDirectory } from './lib/portal/route-directory';
export { PortalRouteDirectory } from './lib/portal/portal-route-directory';
export { ROUTING_HINT_PATH } from './lib/portal/portal-registry';
export { type SnapshotCache } from './lib/cache/snapshot-cache';
export { RedisSnapshotCache } from './lib/cache/redis-snapshot-cache';
export { type CatalogueChangeChannel } from './lib/changes/change-channel';
export { RedisChangeChannel } from './lib/changes/redis-change-channel';
export { RoutingHints } from './lib/hints/routing-hints';
export { type CatalogueStatus } from './lib/status/bundle-status';
