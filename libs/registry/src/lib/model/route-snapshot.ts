import type { SchemaCompiler } from '@toolmesh/protocol';

import type { RegistryErrorCode } from '../errors';
import type { OpenApiSelection } from './http-binding';
import type { RefusedTool, ToolDefinition } from './tool-definition';

/** Where a route's tools came from, as the status endpoint shows it. */
export type SnapshotSource = 'remote' | 'redis' | 'local-fallback' | 'isolated';

/** One tool service's manifest as fetched, kept so the snapshot can be written to Redis and rebuilt from it. */
export interface ServiceManifest {
  readonly serviceDomain: string;
  readonly manifest: unknown;
  /** The URL (or file) the manifest was read from: after a same-origin redirect, where it led. */
  readonly servedFrom?: string;
  /** Set when the document is an OpenAPI document rather than a manifest: which of its operations are tools. */
  readonly openapi?: OpenApiSelection;
  /** Set when the document is an MCP server's `tools/list` (`{ tools }`, issue 28): its tools are forwarded as MCP calls. */
  readonly mcpServer?: boolean;
}

/** A route's last good tools: every enabled tool service's manifest, validated together. */
export interface RouteSnapshot {
  readonly tools: readonly ToolDefinition[];
  /** Tools the manifests offer that are not served (an unusable `inputSchema`), with the reason. */
  readonly refusedTools: readonly RefusedTool[];
  /** The manifests' own revisions, comma-separated; absent when none states one. */
  readonly revision?: string;
  /** sha256 (first 16 hex digits) of the manifests, so operators can compare replicas. */
  readonly hash: string;
  readonly source: SnapshotSource;
  /** When the content was fetched from the tool services (wall clock, ms); its age in the status. */
  readonly fetchedAt: number;
  readonly manifests: readonly ServiceManifest[];
  /**
   * The documents the snapshot was built from, each as its source returned it. A source hands back the
   * very same object for a document that has not changed (http-json-source.ts), so a refresh that gets
   * all of them back builds nothing (route-loader.ts). Absent when not built from fetched documents.
   */
  readonly documents?: readonly unknown[];
  /** The compiler that compiled the tools' schemas; the next build of the route starts from it. */
  readonly schemas: SchemaCompiler;
}

/** `code`: set when the build was refused for something other than an invalid manifest. */
export type SnapshotBuild = { ok: true; snapshot: RouteSnapshot } | { ok: false; problems: string[]; code?: RegistryErrorCode };
