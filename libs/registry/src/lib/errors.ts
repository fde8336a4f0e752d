/** Local (never on the wire) failures of the catalogue, with stable codes listed in docs/errors.md. */
export const RegistryErrorCode = {
  ManifestUnreachable: 'REGISTRY_MANIFEST_UNREACHABLE',
  ManifestInvalid: 'REGISTRY_MANIFEST_INVALID',
  NameCollision: 'REGISTRY_NAME_COLLISION',
  CatalogueTooLarge: 'REGISTRY_CATALOGUE_TOO_LARGE',
  PortalUnreachable: 'REGISTRY_PORTAL_UNREACHABLE',
  PortalInvalid: 'REGISTRY_PORTAL_INVALID',
  RouteEndpointInvalid: 'REGISTRY_ROUTE_ENDPOINT_INVALID',
  SnapshotCacheUnavailable: 'REGISTRY_SNAPSHOT_CACHE_UNAVAILABLE',
  SnapshotCacheInvalid: 'REGISTRY_SNAPSHOT_CACHE_INVALID',
  RoutingHintUnavailable: 'REGISTRY_ROUTING_HINT_UNAVAILABLE',
} as const;

export type RegistryErrorCode = (typeof RegistryErrorCode)[keyof typeof RegistryErrorCode];

export class RegistryError extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'RegistryError';
  }
}

/** Sources reject with RegistryError; anything else (a bug) is reported under `fallback`, never lost. */
export function toRegistryError(error: unknown, fallback: RegistryErrorCode): RegistryError {
  return error instanceof RegistryError ? error : new RegistryError(fallback, error instanceof Error ? error.message : String(error), { cause: error });
}
