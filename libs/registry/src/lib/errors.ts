import { CodedError, errorMessage } from '@toolmesh/protocol';
/** Local (never on the wire) failures of the catalogue, with stable codes listed in docs/errors.md. */
export const RegistryErrorCode = {
  ManifestUnreachable: 'registry.manifest_unreachable',
  ManifestInvalid: 'registry.manifest_invalid',
  ManifestTooLarge: 'registry.manifest_too_large',
  ToolTooDeep: 'registry.tool_too_deep',
  SchemaTooLarge: 'registry.schema_too_large',
  NameCollision: 'registry.name_collision',
  CatalogueTooLarge: 'registry.catalogue_too_large',
  PortalUnreachable: 'registry.portal_unreachable',
  PortalInvalid: 'registry.portal_invalid',
  RouteEndpointInvalid: 'registry.route_endpoint_invalid',
  SnapshotCacheUnavailable: 'registry.snapshot_cache_unavailable',
  SnapshotCacheInvalid: 'registry.snapshot_cache_invalid',
  RoutingHintUnavailable: 'registry.routing_hint_unavailable',
  McpHeaderInvalid: 'registry.mcp_header_invalid',
  OpenApiUnreachable: 'registry.openapi_unreachable',
  OpenApiInvalid: 'registry.openapi_invalid',
  DocumentTooLarge: 'registry.document_too_large',
  YamlTooDeep: 'registry.yaml_too_deep',
  YamlTooManyNodes: 'registry.yaml_too_many_nodes',
  OperationRefused: 'registry.operation_refused',
  RemoteRefRefused: 'registry.openapi_remote_ref',
  OpenApiHeaderRefused: 'registry.openapi_header_refused',
  McpServerUnreachable: 'registry.mcp_server_unreachable',
  McpServerInvalid: 'registry.mcp_server_invalid',
  UpstreamToolRefused: 'registry.upstream_tool_refused',
} as const;

export type RegistryErrorCode = (typeof RegistryErrorCode)[keyof typeof RegistryErrorCode];

export class RegistryError extends CodedError<RegistryErrorCode> {
  override readonly name = 'RegistryError';
}

/** Sources reject with RegistryError; anything else (a bug) is reported under `fallback`, never lost. */
export function toRegistryError(error: unknown, fallback: RegistryErrorCode): RegistryError {
  return error instanceof RegistryError ? error : new RegistryError(fallback, errorMessage(error), { cause: error });
}
