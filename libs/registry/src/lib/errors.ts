/** Local (never on the wire) failures of the catalogue, with stable codes listed in docs/errors.md. */
export const RegistryErrorCode = {
  ManifestUnreachable: 'REGISTRY_MANIFEST_UNREACHABLE',
  ManifestInvalid: 'REGISTRY_MANIFEST_INVALID',
  NameCollision: 'REGISTRY_NAME_COLLISION',
  CatalogueTooLarge: 'REGISTRY_CATALOGUE_TOO_LARGE',
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
