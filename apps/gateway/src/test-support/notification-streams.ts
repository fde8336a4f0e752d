import { SseParser } from '@toolmesh/transport-http/client';

import { modernInit, modernRequest } from './modern-request';

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
) => openStream(mcpUrl, modernInit('subscriptions/listen', { notifications }, { id }));

/** The sample service's own trigger, called directly: the manifest changes and no gateway is told. */
export const changeManifest = (toolServiceUrl: string) =>
  fetch(`${toolServiceUrl}/tools/test_trigger_tool_change`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });

/** A 2026 tools/call of the tool the manifest change adds, at `mcpUrl`: unknown there, it forces a refresh. */
export const callAddedTool = async (mcpUrl: string) =>
  (await (await modernRequest(mcpUrl, 'tools/call', { name: 'test_added_tool', arguments: {} })).json()) as Record<string, unknown>;
