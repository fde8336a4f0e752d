/**
 * How an OpenAPI operation's arguments become its HTTP request (issue 27): the one kind of tool whose
 * arguments may reach the outbound URL, and only as the parameters the operation declares. Read from the
 * document when it loads; the gateway places the values (apps/gateway/src/tool-client/outbound-path.ts).
 */
export interface HttpBinding {
  /** Upper case: GET, POST, PUT, PATCH, DELETE. */
  readonly method: string;
  /**
   * The path after the origin, in order: literal text (the service domain's path, then the document's
   * template between parameters) and the names of the path arguments, each placed as one encoded segment.
   */
  readonly path: ReadonlyArray<string | { readonly argument: string }>;
  /** Arguments sent as query values; an array argument repeats its name (OpenAPI's default `form`, exploded). */
  readonly query: readonly string[];
  /** Arguments sent as request headers, by argument name and header name (lower case). */
  readonly headers: ReadonlyArray<{ readonly argument: string; readonly header: string }>;
  /** The argument whose value is the JSON request body. */
  readonly body?: string;
  /** The credentials the operation needs, by security scheme; their values come from the gateway's configuration, never the caller. */
  readonly credentials: readonly CredentialPlacement[];
}

/** Where one security scheme's secret goes (OpenAPI `securitySchemes` of type apiKey or http bearer/basic). */
export interface CredentialPlacement {
  /** The scheme's name in the document, which the bundle configuration names its secret by. */
  readonly scheme: string;
  readonly kind: 'header' | 'query' | 'bearer' | 'basic';
  /** The header or query parameter name, for `header` and `query`. */
  readonly name?: string;
}

/** Which operations of an OpenAPI document become tools: the bundle's allowlist; the document's own `x-toolmesh-tool` adds to it. */
export interface OpenApiSelection {
  readonly operations: readonly string[];
  readonly tags: readonly string[];
  /** The timeout of an operation whose `x-toolmesh-tool` names none. */
  readonly timeoutMillis?: number;
  /** Tool names by operationId, where the bundle gives one (operation-names.ts: otherwise derived from the operationId). */
  readonly names?: Readonly<Record<string, string>>;
  /** `none`: no tool advertises an `outputSchema`, so a reply is passed on as text, never checked; `enforce` (unset) as derived. */
  readonly outputSchemas?: 'enforce' | 'none';
}
