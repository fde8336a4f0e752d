import {
  decodeHeaderValue,
  headerMismatch,
  type JsonRpcErrorResponse,
  type McpHeaderBinding,
  McpHttpHeader,
  type RequestId,
} from '@toolmesh/protocol';
import type { RequestContext } from '@toolmesh/transport-http/server';

import { headerValue } from '../request-headers';

/**
 * Each argument a tool marks with `x-mcp-header` must be repeated, equal, in its `Mcp-Param-{Name}` header
 * when the body carries it, and the header must not claim a value the body lacks (2026-07-28 §Streamable
 * HTTP). Integers compare as numbers (`+7` is 7); a mismatch is `-32020`.
 */
export function checkParamHeaders(
  id: RequestId,
  bindings: readonly McpHeaderBinding[],
  args: Record<string, unknown>,
  context: RequestContext,
): JsonRpcErrorResponse | undefined {
  for (const binding of bindings) {
    const name = `${McpHttpHeader.ParamPrefix}${binding.header.toLowerCase()}`;
    const raw = headerValue(context, name);
    const value = valueAt(args, binding.path);
    const shown = `Mcp-Param-${binding.header}`;
    if (value === undefined || value === null) {
      if (raw !== undefined) return headerMismatch(id, `${shown} is sent but arguments.${binding.path.join('.')} is not`);
      continue;
    }
    if (raw === undefined) return headerMismatch(id, `${shown} is required: arguments.${binding.path.join('.')} is set`);
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return headerMismatch(id, `${shown} ${decoded.problem}`);
    if (!matches(decoded.value, value, binding.type))
      return headerMismatch(id, `${shown} differs from arguments.${binding.path.join('.')}`);
  }
  return undefined;
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function matches(header: string, value: unknown, type: McpHeaderBinding['type']): boolean {
  switch (type) {
    case 'integer':
      return /^[+-]?\d+$/.test(header) && typeof value === 'number' && Number(header) === value;
    case 'boolean':
      return header === String(value) && typeof value === 'boolean';
    case 'string':
      return header === value;
  }
}
