import { JsonRpcErrorCode } from '@toolmesh/protocol';
import type { HandlerResult } from './method-handler';

export function invalidParamsResult(detail: string): HandlerResult {
  return { error: { code: JsonRpcErrorCode.InvalidParams, message: `Invalid params: ${detail}` } };
}

export function registryUnavailableResult(): HandlerResult {
  return { error: { code: JsonRpcErrorCode.RegistryUnavailable, message: 'Tool registry unavailable: no tool catalogue could be loaded yet; retry later' } };
}

export function unknownToolResult(name: string): HandlerResult {
  return { error: { code: JsonRpcErrorCode.ToolNotFound, message: `Unknown tool: ${name.slice(0, 128)}` } };
}
