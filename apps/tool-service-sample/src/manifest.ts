import { createHash } from 'node:crypto';

import { skillsManifestMember } from './sample-skills';
import { SERVICE_IDENTITY } from './service-identity';
import type { Tool } from './tools';

/** The path at which the service publishes its manifest (the gateway's `manifestPath`). */
export const MANIFEST_PATH = '/tool-manifest';
export const TOOL_PATH_PREFIX = '/tools/';
/** Where the service describes itself for agents' routing (the gateway's `_meta.toolServers`, SPEC G18). */
export const SERVICE_MANIFEST_PATH = '/tool-service-manifest';

/** docs/manifest-format.md; only the members this service uses. */
export interface ToolManifest {
  readonly manifestVersion: '1';
  readonly revision: string;
  readonly service: { readonly name: string; readonly title: string };
  readonly tools: ReadonlyArray<Omit<Tool, 'call'> & { readonly endpoint: string }>;
  /** The skills served beside the manifest (sample-skills.ts). */
  readonly skills: ReadonlyArray<{ readonly name: string; readonly files: readonly string[] }>;
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
    skills: skillsManifestMember(),
  };
}

/** The routing hint: who the service is and which tools it serves, without schemas or endpoints. */
export function buildServiceManifest(manifest: ToolManifest) {
  return {
    service: manifest.service,
    revision: manifest.revision,
    tools: manifest.tools.map((tool) => tool.name),
  };
}
