import type { GatewayConfig } from './gateway-config';

/**
 * What the configuration of pinned tool definitions (issue 46) cannot be: a policy on a bundle whose
 * definitions are not a manifest's or an MCP server's (an OpenAPI document's operations are the document's
 * owner's, and reviewed as the document is), or a pin file or approval token with no bundle to apply to.
 */
export function definitionPinsProblem({ mcp }: GatewayConfig): string | undefined {
  const openapi = mcp.bundles.find((bundle) => bundle.openapi !== undefined && (bundle.definitionChanges ?? 'accept') !== 'accept');
  if (openapi !== undefined)
    return `mcp.bundles ${openapi.name}: definitionChanges is for manifest and mcpServer bundles; an OpenAPI bundle serves its document's operations as they are (leave it out, or accept)`;
  const pinned = mcp.bundles.some((bundle) => (bundle.definitionChanges ?? 'accept') !== 'accept');
  if (mcp.definitionPins !== undefined && !pinned)
    return 'mcp.definitionPins is set but no bundle has definitionChanges warn or hold: set it on the bundles to pin, or remove mcp.definitionPins';
  return undefined;
}
