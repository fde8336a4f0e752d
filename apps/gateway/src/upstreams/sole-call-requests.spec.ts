import type { ServerRequestHandlers } from '@toolmesh/mcp-client';

import { SoleCallRequests } from './sole-call-requests';

const ASK = { messages: [], maxTokens: 10 };
const signal = new AbortController().signal;

/** A call's handlers that answer sampling with `text`. */
function callAnswering(text: string): ServerRequestHandlers {
  return { sampling: async () => ({ role: 'assistant', content: { type: 'text', text }, model: 'm' }) };
}

describe("a 2025 server's request on its session's own stream", () => {
  it('goes to the one call running, and is refused once it ended', async () => {
    const requests = new SoleCallRequests();
    const call = callAnswering('from the call');
    requests.began(call);
    await expect(requests.handlers.sampling?.(ASK, signal)).resolves.toMatchObject({ content: { text: 'from the call' } });
    requests.ended(call);
    await expect(requests.handlers.sampling?.(ASK, signal)).rejects.toThrow(
      'sampling/createMessage outside a call: this gateway has nobody to ask',
    );
  });

  it('is refused while several calls run, whose caller it is for being unknown', async () => {
    const requests = new SoleCallRequests();
    const first = callAnswering('a');
    requests.began(first);
    requests.began(callAnswering('b'));
    await expect(
      requests.handlers.elicitation?.({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } }, signal),
    ).rejects.toThrow("elicitation/create on the session's own stream while 2 calls run: which caller it is for is unknown");
    requests.ended(first);
    await expect(requests.handlers.sampling?.(ASK, signal)).resolves.toMatchObject({ content: { text: 'b' } });
  });

  it("is refused when the one call's caller cannot be asked it", async () => {
    const requests = new SoleCallRequests();
    requests.began({});
    await expect(requests.handlers.roots?.()).rejects.toThrow('roots/list: the caller of the call cannot be asked it');
  });
});
