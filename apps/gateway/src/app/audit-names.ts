import type { AuditNames } from '../audit/audit-trail';
import { curatedPath } from '../config/endpoint-settings';
import type { GatewayConfig } from '../config/gateway-config';
import type { CuratedEndpoints, EndpointView } from '../endpoints/curated-endpoints';
import { SEARCH_TOOLS_NAME } from '../mcp/tool-search/search-tools';

/**
 * What the audit trail names (issue 46): the path of the endpoint a request came to, and the tool it named
 * as that endpoint serves it: the default endpoint's from the gateway's catalogue, a curated endpoint's
 * from its own view, so an alias is written as its catalogue tool with its bundle (as policies, limits and
 * logs know it) and a catalogue tool outside the subset is as unknown as on the endpoint itself.
 * `curated` is read at request time: the endpoints are built after the trail is opened.
 */
export function auditNames(mcp: GatewayConfig['mcp'], gateway: EndpointView['catalogue'], curated: () => CuratedEndpoints): AuditNames {
  const paths = new Map((mcp.endpoints ?? []).map((endpoint) => [endpoint.name, curatedPath(mcp.endpointPath, endpoint)]));
  const whole: EndpointView = { catalogue: gateway, toolSearch: mcp.toolSearch };
  return {
    endpoint: (context) => (context.endpoint === undefined ? mcp.endpointPath : (paths.get(context.endpoint) ?? mcp.endpointPath)),
    tool: (name, context) => {
      const view = (context.endpoint !== undefined && curated().view(context.endpoint)) || whole;
      const tool = view.catalogue.current()?.tools.get(name);
      if (tool !== undefined) return { name: tool.name, bundle: tool.routeToken };
      return view.toolSearch && name === SEARCH_TOOLS_NAME ? { name } : undefined;
    },
  };
}
