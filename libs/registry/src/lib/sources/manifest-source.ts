/** Where one bundle's manifest comes from: a tool service over HTTP, or a file (local profile, tests). */
export interface ManifestSource {
  /** For logs and status: the URL or path, never credentials. */
  readonly location: string;
  /** The parsed JSON document. Rejects with a RegistryError when it cannot be had. */
  fetch(): Promise<unknown>;
}
