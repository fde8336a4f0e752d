import { createHash } from 'node:crypto';
import { SchemaCompiler } from '@toolmesh/protocol';
import { validateManifest } from '../manifest/validate-manifest';
import type { RefusedTool, ToolDefinition } from './tool-definition';

/** Where a route's tools came from, as the status endpoint shows it. */
export type SnapshotSource = 'remote' | 'redis' | 'local-fallback' | 'isolated';

/** One tool service's manifest as fetched, kept so the snapshot can be written to Redis and rebuilt from it. */
export interface ServiceManifest {
  readonly serviceDomain: string;
  readonly manifest: unknown;
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
}

export type SnapshotBuild = { ok: true; snapshot: RouteSnapshot } | { ok: false; problems: string[] };

/** Validates a route's manifests (each on its own, then duplicates across its services) into a snapshot. */
export function buildRouteSnapshot(
  route: { token: string; namePrefix?: string },
  manifests: readonly ServiceManifest[],
  source: SnapshotSource,
  fetchedAt: number,
): SnapshotBuild {
  const tools: ToolDefinition[] = [];
  const refusedTools: RefusedTool[] = [];
  const revisions: string[] = [];
  const problems: string[] = [];
  const schemas = new SchemaCompiler();
  for (const { serviceDomain, manifest } of manifests) {
    const validation = validateManifest(manifest, { name: route.token, serviceDomain, namePrefix: route.namePrefix }, schemas);
    if (!validation.ok) {
      problems.push(...validation.problems.map((problem) => `${serviceDomain}: ${problem}`));
      continue;
    }
    tools.push(...validation.manifest.tools);
    refusedTools.push(...validation.manifest.refused);
    if (validation.manifest.revision !== undefined) revisions.push(validation.manifest.revision);
  }
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) problems.push(`tool ${tool.name}: offered by two tool services of route ${route.token}`);
    seen.add(tool.name);
  }
  if (problems.length > 0) return { ok: false, problems };
  const hash = createHash('sha256').update(JSON.stringify(manifests.map((m) => m.manifest))).digest('hex').slice(0, 16);
  return {
    ok: true,
    snapshot: { tools, refusedTools, hash, source, fetchedAt, manifests, ...(revisions.length > 0 && { revision: revisions.join(',') }) },
  };
}

/** A route that serves no tools: all its services disabled, or (never fetched) its endpoints unusable. */
export function emptySnapshot(source: SnapshotSource, fetchedAt: number): RouteSnapshot {
  return { tools: [], refusedTools: [], hash: createHash('sha256').update('[]').digest('hex').slice(0, 16), source, fetchedAt, manifests: [] };
}
