import { isModernProtocolVersion, McpHttpHeader, McpMetaKey, McpMethod, type ParsedMessage } from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { headerValue } from './request-headers';

export type EraName = 'modern' | 'legacy';

/**
 * Which era a message belongs to, decided once, by the body first (the SDK's `classifyInboundRequest`):
 * a `_meta` that names a protocol version is a modern claim; `initialize` is legacy; otherwise a modern
 * `MCP-Protocol-Version` header makes it modern (and the modern era refuses the missing `_meta`), and
 * everything else, client responses included, is legacy session traffic.
 */
export function classifyEra(message: ParsedMessage, context: RequestContext): EraName {
  if (message.kind === 'response') return 'legacy';
  const { params } = message.message;
  const meta = params?._meta;
  if (typeof meta === 'object' && meta !== null && Object.hasOwn(meta, McpMetaKey.ProtocolVersion)) return 'modern';
  if (message.message.method === McpMethod.Initialize) return 'legacy';
  const version = headerValue(context, McpHttpHeader.ProtocolVersion);
  return version !== undefined && isModernProtocolVersion(version) ? 'modern' : 'legacy';
}
