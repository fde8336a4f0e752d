import { SseParser } from '@toolmesh/transport-http/client';

/** The `_meta` every 2026-07-28 request carries. */
const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** The headers of a 2026-07-28 request for `method` (and the tool `name`, for tools/call). */
const modernHeaders = (method: string, name?: string) => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name !== undefined && { 'mcp-name': name }),
});

/** An open notification stream: every JSON-RPC message it has carried so far, and a way to wait for one. */
export interface OpenStream {
  readonly messages: Array<Record<string, unknown>>;
  next(matching: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

export async function openStream(url: string, init: RequestInit): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(url, { ...init, signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  const parser = new SseParser(1 << 20);
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (event.kind === 'event' && event.event.data.length > 0) messages.push(JSON.parse(event.event.data) as Record<string, unknown>);
        }
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    messages,
    next: async (matching) => {
      for (;;) {
        const found = messages.find(matching);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => abort.abort(),
  };
}

export const isListChanged = (message: Record<string, unknown>) => message.method === 'notifications/tools/list_changed';

/** A 2026 `subscriptions/listen` at `mcpUrl`, for tool-list changes (and prompts, which the gateway does not honour) unless told which. */
export const openListen = (
  mcpUrl: string,
  id: string | number,
  notifications: Record<string, boolean> = { toolsListChanged: true, promptsListChanged: true },
) =>
  openStream(mcpUrl, {
    method: 'POST',
    headers: modernHeaders('subscriptions/listen'),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications, _meta: MODERN_META },
    }),
  });

/** The sample service's own trigger, called directly: the manifest changes and no gateway is told. */
export const changeManifest = (toolServiceUrl: string) =>
  fetch(`${toolServiceUrl}/tools/test_trigger_tool_change`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });

/** A 2026 tools/call of the tool the manifest change adds, at `mcpUrl`: unknown there, it forces a refresh. */
export const callAddedTool = async (mcpUrl: string) =>
  (await (
    await fetch(mcpUrl, {
      method: 'POST',
      headers: modernHeaders('tools/call', 'test_added_tool'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'test_added_tool', arguments: {}, _meta: MODERN_META },
      }),
    })
  ).json()) as Record<string, unknown>;
