import type { JsonRpcErrorResponse, RequestId } from './messages';

/**
 * A JSON value serialized ahead of time, inlined verbatim into a response. The gateway keeps its
 * `tools/list` result this way per catalogue generation, so serving 1,000 tools costs a string concat.
 */
export class RawJson {
  constructor(readonly json: string) {}
}

export function serializeResultResponse(id: RequestId, result: object | RawJson): string {
  const resultJson = result instanceof RawJson ? result.json : JSON.stringify(result);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`;
}

export function serializeErrorResponse(response: JsonRpcErrorResponse): string {
  return JSON.stringify(response);
}
