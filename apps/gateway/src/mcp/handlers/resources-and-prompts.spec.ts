import type { RequestContext } from '@toolmesh/transport-http/server';

import type { FederatedFeatures } from '../../upstreams/federated-features';
import { legacyErrors, modernErrors } from '../era-errors';
import type { RequestHandler } from './method-handler';
import { resourcesAndPromptsHandlers } from './resources-and-prompts';

const ASKED = { inputRequests: { user_name: { method: 'elicitation/create', params: { message: 'Name?' } } } };
const RESOURCES = Array.from({ length: 5 }, (_, i) => ({ uri: `test://${i}`, name: `r${i}` }));
let failure: unknown;
const features = {
  lists: async () => ({ resources: RESOURCES, resourceTemplates: [], prompts: [{ name: 'p' }] }),
  readResource: async (uri: string) =>
    uri === 'test://fails'
      ? { failed: failure }
      : uri.startsWith('test://')
        ? { result: { contents: [{ uri, text: 'x' }] } }
        : uri === 'both://x'
          ? { notFound: true, candidates: ['a+both://x', 'b+both://x'] }
          : { notFound: true },
  getPrompt: async (name: string) =>
    name === 'p' ? { result: { messages: [] } } : name === 'asks' ? { inputRequired: ASKED } : { notFound: true },
  complete: async ({ ref }: { ref: { name?: string } }) =>
    ref.name === 'p' ? { result: { completion: { values: ['Ada'], hasMore: false } } } : { notFound: true },
} as unknown as FederatedFeatures;
const context = {} as RequestContext;

function handlers(errors = legacyErrors): Map<string, RequestHandler> {
  return new Map(resourcesAndPromptsHandlers(features, errors, 2));
}

describe('resources and prompts handlers', () => {
  it("passes a server's input_required to a 2026 caller, and tells a 2025 caller that could not be asked on a stream -32603 and why (issue 44)", async () => {
    const get = handlers().get('prompts/get') as RequestHandler;
    const declared = { _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };
    expect(await get({ name: 'asks', ...declared }, context, 1)).toEqual({ inputRequired: ASKED });
    expect(await get({ name: 'asks' }, context, 1)).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('relays to 2026-07-28 clients only') },
    });
  });

  it("answers completion/complete with its server's completions, -32602 for a ref nobody lists or malformed params", async () => {
    const complete = handlers().get('completion/complete') as RequestHandler;
    const argument = { name: 'who', value: 'A' };
    expect(await complete({ ref: { type: 'ref/prompt', name: 'p' }, argument }, context, 1)).toEqual({
      result: { completion: { values: ['Ada'], hasMore: false } },
    });
    expect(await complete({ ref: { type: 'ref/prompt', name: 'none' }, argument }, context, 1)).toMatchObject({
      error: { code: -32602, message: 'Invalid params: no prompt named "none"' },
    });
    for (const [params, field] of [
      [{ argument }, '"ref"'],
      [{ ref: { type: 'ref/tool', name: 'p' }, argument }, '"ref.type"'],
      [{ ref: { type: 'ref/resource', uri: 7 }, argument }, '"ref.uri"'],
      [{ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'who' } }, '"argument"'],
      [{ ref: { type: 'ref/prompt', name: 'p' }, argument, context: { arguments: { a: 1 } } }, '"context.arguments"'],
    ] as const)
      expect(await complete(params as Record<string, unknown>, context, 1)).toMatchObject({
        error: { code: -32602, message: expect.stringContaining(field) },
      });
  });

  it('pages a list as tools/list is paged, every page reachable by its cursor, and refuses a cursor it did not issue', async () => {
    const list = handlers().get('resources/list') as RequestHandler;
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = (await list(cursor === undefined ? {} : { cursor }, context, 1)) as {
        result: { resources: unknown[]; nextCursor?: string };
      };
      expect(page.result.resources.length).toBeLessThanOrEqual(2);
      seen.push(...page.result.resources);
      cursor = page.result.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(RESOURCES);
    for (const bad of ['nope', Buffer.from('toolmesh-offset:9').toString('base64url'), 7])
      expect(await list({ cursor: bad }, context, 1)).toMatchObject({ error: { code: -32602 } });
  });

  it("answers a resource nobody has with the era's code, and a prompt nobody lists with -32602", async () => {
    expect(await handlers(legacyErrors).get('resources/read')?.({ uri: 'none://x' }, context, 1)).toMatchObject({
      error: { code: -32002, data: { uri: 'none://x' } },
    });
    expect(await handlers(modernErrors).get('resources/read')?.({ uri: 'none://x' }, context, 1)).toMatchObject({
      error: { code: -32602, data: { uri: 'none://x' } },
    });
    expect(await handlers().get('prompts/get')?.({ name: 'q' }, context, 1)).toMatchObject({ error: { code: -32602 } });
    expect(await handlers().get('prompts/get')?.({ name: 'p', arguments: { a: 1 } }, context, 1)).toMatchObject({
      error: { code: -32602 },
    });
    expect(await handlers().get('resources/read')?.({}, context, 1)).toMatchObject({ error: { code: -32602 } });
  });

  it("answers a URI several servers serve with the era's not-found code, naming the namespaced URIs to read instead", async () => {
    for (const [errors, code] of [
      [legacyErrors, -32002],
      [modernErrors, -32602],
    ] as const)
      expect(await handlers(errors).get('resources/read')?.({ uri: 'both://x' }, context, 1)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code,
          message: 'Resource not found: both://x is served by 2 MCP servers; read one of a+both://x, b+both://x',
          data: { uri: 'both://x', candidates: ['a+both://x', 'b+both://x'] },
        },
      });
  });

  it("passes a server's error on as the era allows: -32002 is -32602 at 2026-07-28, a hop's code or a lost connection -32603", async () => {
    const read = (errors: typeof legacyErrors) => handlers(errors).get('resources/read')?.({ uri: 'test://fails' }, context, 1);
    failure = Object.assign(new Error('Resource not found'), { code: -32002, data: { uri: 'test://fails' } });
    expect(await read(legacyErrors)).toMatchObject({ error: { code: -32002, data: { uri: 'test://fails' } } });
    expect(await read(modernErrors)).toMatchObject({ error: { code: -32602, data: { uri: 'test://fails' } } });
    // A server's not-found without data.uri gets the uri read (sep-2164-resource-not-found).
    failure = Object.assign(new Error('Resource not found'), { code: -32002 });
    expect(await read(modernErrors)).toMatchObject({ error: { code: -32602, data: { uri: 'test://fails' } } });
    failure = Object.assign(new Error('Resource not found'), { code: -32002, data: { reason: 'gone' } });
    expect(await read(legacyErrors)).toMatchObject({ error: { code: -32002, data: { reason: 'gone', uri: 'test://fails' } } });
    failure = Object.assign(new Error('Unsupported protocol version'), { code: -32022 });
    expect(await read(modernErrors)).toMatchObject({ error: { code: -32603 } });
    failure = Object.assign(new Error('MCP server http://s/mcp did not answer resources/read within 10 ms'), {
      code: 'gateway.upstream_timeout',
    });
    expect(await read(legacyErrors)).toMatchObject({ error: { code: -32603, message: expect.stringContaining('did not answer') } });
  });
});
