/** One HTTP answer, built by routes and tools and written by the server in one place. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a tool hands back under `data`; the call contract allows text, an object or an array. */
export type ToolData = string | object | readonly unknown[];

export function jsonReply(status: number, value: unknown): Reply {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

/** The contract's success shape: 200 with `{"data": ...}`. */
export function dataReply(data: ToolData): Reply {
  return jsonReply(200, { data });
}

/** The contract's request for input (MRTR): the gateway relays it to a 2026 client, which retries with answers. */
export function inputRequiredReply(inputRequests: Record<string, { method: string; params: object }>, requestState?: string): Reply {
  return jsonReply(200, { inputRequired: { inputRequests, ...(requestState !== undefined && { requestState }) } });
}

export function errorReply(status: number, message: string): Reply {
  return jsonReply(status, { error: message });
}

export function textReply(status: number, contentType: string, body: string): Reply {
  return { status, headers: { 'content-type': contentType }, body };
}

export const noContentReply: Reply = { status: 204, headers: {}, body: '' };
