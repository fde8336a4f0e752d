import { createHash } from 'node:crypto';
import { SERVICE_IDENTITY } from './service-identity';
import type { Tool } from './tools';

/** The path at which the service publishes its manifest (the gateway's `manifestPath`). */
export const MANIFEST_PATH = '/tool-manifest';
export const TOOL_PATH_PREFIX = '/tools/';

/** docs/manifest-format.md; only the members this service uses. */
export interface ToolManifest {
  readonly manifestVersion: '1';
  readonly revision: string;
  readonly service: { readonly name: string; readonly title: string };
  readonly tools: ReadonlyArray<Omit<Tool, 'call'> & { readonly endpoint: string }>;
}

/**
 * Builds the manifest from the tool definitions. The revision is a digest of the published tools, so it
 * changes exactly when the tool set does, without anyone having to remember to bump it.
 */
export function buildManifest(tools: readonly Tool[]): ToolManifest {
  const published = tools.map(({ call: _call, ...tool }) => ({ ...tool, endpoint: `${TOOL_PATH_PREFIX}${tool.name}` }));
  const revision = createHash('sha256').update(JSON.stringify(published)).digest('hex').slice(0, 12);
  return {
    manifestVersion: '1',
    revision,
    service: { name: SERVICE_IDENTITY.name, title: SERVICE_IDENTITY.title },
    tools: published,
  };
}
