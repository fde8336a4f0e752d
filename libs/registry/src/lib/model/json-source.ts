import { RegistryErrorCode } from '../errors';

/** Where a JSON document of the catalogue comes from: a service over HTTP, or a file (local profile, tests). */
export interface JsonSource {
  /** For logs and status: the URL or path, never credentials. */
  readonly location: string;
  /** Where the last successful fetch was answered, as `location` shows it, when a redirect was followed (same origin only). */
  readonly servedFrom?: string;
  /** The parsed JSON document. Rejects with a RegistryError when it cannot be had. */
  fetch(): Promise<unknown>;
}

/** What a source reads, for its messages and the codes of its two failures. */
export interface DocumentKind {
  readonly label: string;
  /** Whether the document may be written in YAML (OpenAPI's other published form) as well as JSON. */
  readonly yaml?: boolean;
  readonly unreachable: RegistryErrorCode;
  readonly invalid: RegistryErrorCode;
}

export const MANIFEST_DOCUMENT: DocumentKind = {
  label: 'manifest',
  unreachable: RegistryErrorCode.ManifestUnreachable,
  invalid: RegistryErrorCode.ManifestInvalid,
};

/** A document that may be either (the lint command's): what it is shows once it is read. */
export const TOOL_SOURCE_DOCUMENT: DocumentKind = {
  label: 'document',
  yaml: true,
  unreachable: RegistryErrorCode.ManifestUnreachable,
  invalid: RegistryErrorCode.ManifestInvalid,
};

export const OPENAPI_DOCUMENT: DocumentKind = {
  label: 'OpenAPI document',
  yaml: true,
  unreachable: RegistryErrorCode.OpenApiUnreachable,
  invalid: RegistryErrorCode.OpenApiInvalid,
};

export const PORTAL_DOCUMENT: DocumentKind = {
  label: 'portal registry',
  unreachable: RegistryErrorCode.PortalUnreachable,
  invalid: RegistryErrorCode.PortalInvalid,
};

export const ROUTING_HINT_DOCUMENT: DocumentKind = {
  label: 'tool service manifest',
  unreachable: RegistryErrorCode.RoutingHintUnavailable,
  invalid: RegistryErrorCode.RoutingHintUnavailable,
};
