import { curatedPath, type EndpointSettings } from './endpoint-settings';
import type { GatewayConfig } from './gateway-config';

/**
 * What the schema cannot say of `mcp.endpoints` (issue 46), each problem named with its endpoint and what
 * to do: names and paths of their own (not the default endpoint's, nor the OAuth metadata's), bundles that
 * exist, aliases that name one tool each, scopes only where callers are authenticated. Returns the first
 * problem, or undefined.
 */
export function endpointsProblem(config: Pick<GatewayConfig, 'mcp' | 'auth'>): string | undefined {
  const { mcp } = config;
  const endpoints = mcp.endpoints ?? [];
  const names = new Set<string>();
  const paths = new Map<string, string>();
  for (const endpoint of endpoints) {
    const at = `mcp.endpoints ${endpoint.name}`;
    if (names.has(endpoint.name)) return `mcp.endpoints: two endpoints are named ${endpoint.name}; give each its own name`;
    names.add(endpoint.name);
    const path = curatedPath(mcp.endpointPath, endpoint);
    const pathProblem = pathProblemOf(path, mcp.endpointPath, paths.get(path));
    if (pathProblem !== undefined) return `${at}: path ${path} ${pathProblem}`;
    paths.set(path, endpoint.name);
    const bundleProblem = unknownBundle(endpoint, mcp);
    if (bundleProblem !== undefined) return `${at}: ${bundleProblem}`;
    const aliasProblem = aliasCollision(endpoint);
    if (aliasProblem !== undefined) return `${at}: ${aliasProblem}`;
    if (endpoint.scopes !== undefined && config.auth === undefined)
      return `${at}: scopes need callers' tokens: configure auth, or remove the endpoint's scopes`;
  }
  return undefined;
}

function pathProblemOf(path: string, defaultPath: string, takenBy: string | undefined): string | undefined {
  if (path === defaultPath)
    return "is the default endpoint's (mcp.endpointPath); give the endpoint a path of its own, e.g. " + `${defaultPath}/<name>`;
  if (takenBy !== undefined) return `is also endpoint ${takenBy}'s; give each endpoint its own path`;
  if (path.endsWith('/') || path.includes('//')) return 'must not end with "/" nor hold "//": clients reach it by that exact path';
  if (path.startsWith('/.well-known/')) return 'is under /.well-known/, where the gateway serves its OAuth metadata; choose another';
  return undefined;
}

/** A `bundle` entry naming no bundle of `mcp.bundles`; a portal's bundles are known only once it is read. */
function unknownBundle({ serve }: EndpointSettings, mcp: GatewayConfig['mcp']): string | undefined {
  if (mcp.portal.registryUrl !== undefined) return undefined;
  const known = mcp.bundles.map((bundle) => bundle.name);
  for (const selector of serve) {
    if ('bundle' in selector && !known.includes(selector.bundle))
      return `serve names bundle ${selector.bundle}, which mcp.bundles does not have (it has: ${known.join(', ') || 'none'})`;
  }
  return undefined;
}

/**
 * Two tools shown under one name: two overrides giving the same name, or a name given that is also a tool
 * the endpoint serves by that exact name (a `tools` entry without `*`, or another override's tool).
 */
function aliasCollision({ serve, overrides = {} }: EndpointSettings): string | undefined {
  const shown = new Map<string, string>();
  for (const [tool, override] of Object.entries(overrides)) {
    if (override.name === undefined || override.name === tool) continue;
    const other = shown.get(override.name);
    if (other !== undefined) return `overrides give tools ${other} and ${tool} the one name ${override.name}; give each its own`;
    shown.set(override.name, tool);
  }
  const exact = serve.flatMap((selector) => ('tools' in selector && !selector.tools.includes('*') ? [selector.tools] : []));
  for (const name of [...exact, ...Object.keys(overrides)]) {
    const aliased = shown.get(name);
    const renamedItself = overrides[name]?.name !== undefined && overrides[name]?.name !== name;
    if (aliased !== undefined && !renamedItself)
      return `overrides name tool ${aliased} ${name}, which is also a tool the endpoint serves; choose another name`;
  }
  return undefined;
}
