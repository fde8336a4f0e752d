import type { CompletionParams } from '@toolmesh/mcp-client';
import type { Logger, RequestContext } from '@toolmesh/transport-http/server';

import { RequestStateSeal } from '../call/request-state-seal';
import type { BundleSettings } from '../config/gateway-config';
import { FederatedFeatures } from './federated-features';
import { HeldCalls } from './held-calls';
import type { McpUpstreams } from './mcp-upstreams';
import type { UpstreamCall, UpstreamConnection, UpstreamFeatures } from './upstream-connection';

/** A server as the federation sees it: what it lists, and a record of what it was asked. */
function server(features: UpstreamFeatures) {
  const asked: string[] = [];
  const connection = {
    listFeatures: async () => features,
    relayRequest: async (method: string, target: string, args: unknown, call: UpstreamCall) =>
      method === 'resources/read' ? read(target, call) : get(target, args as Record<string, string> | undefined),
    complete: async ({ ref, argument }: CompletionParams) => {
      asked.push(`complete ${ref.type === 'ref/prompt' ? ref.name : ref.uri} ${argument.name}=${argument.value}`);
      return { completion: { values: [`${argument.value}1`], hasMore: false } };
    },
  };
  const read = async (uri: string, call: UpstreamCall) => {
    asked.push(`read ${uri}`);
    if (uri.startsWith('fail://')) throw Object.assign(new Error('Resource not found: fail://x'), { code: -32002 });
    return {
      contents: [
        {
          uri,
          text: `${uri} (within ${call.timeoutMillis > 0 ? 'the deadline' : 'nothing'}, guid ${String(call.meta['io.toolmesh/guid'])})`,
        },
      ],
    };
  };
  const get = async (name: string, args: Record<string, string> | undefined) => {
    asked.push(`get ${name}`);
    return { messages: [{ role: 'user', content: { type: 'text', text: `${name} ${JSON.stringify(args)}` } }] };
  };
  return { asked, connection: connection as unknown as UpstreamConnection };
}

const warnings: Array<[string, Record<string, unknown>]> = [];
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (event, fields) => void warnings.push([event, fields ?? {}]),
  error: () => undefined,
  flush: () => undefined,
};
const context = { guid: 'g-1', requestId: 'r-1', deadline: performance.now() + 60_000, receivedAt: 0 } as RequestContext;

describe('FederatedFeatures', () => {
  const first = server({
    resources: [
      { uri: 'test://shared', name: 'first-shared' },
      { uri: 'test://first', name: 'first' },
    ],
    resourceTemplates: [{ uriTemplate: 'test://first/{id}', name: 'first-template' }],
    prompts: [{ name: 'greet' }],
    skills: [],
  });
  const second = server({
    resources: [
      { uri: 'test://shared', name: 'second-shared' },
      { uri: 'test://second', name: 'second' },
    ],
    resourceTemplates: [{ uriTemplate: 'test://second/{id}', name: 'second-template' }],
    prompts: [{ name: 'greet' }, { name: 'other' }],
    skills: [],
  });
  const prefixed = server({
    resources: [
      { uri: 'test://first', name: 'prefixed' },
      { uri: 'both://x', name: 'prefixed-both' },
    ],
    resourceTemplates: [{ uriTemplate: 'prefixed://{id}', name: 'prefixed-template' }],
    prompts: [{ name: 'greet' }],
    skills: [
      {
        uri: 'skill://notes/SKILL.md',
        frontmatter: { name: 'notes', description: 'Notes.' },
        resources: [
          { uri: 'skill://notes/SKILL.md', digest: `sha256:${'a'.repeat(64)}`, size: 10 },
          { uri: 'skill://notes/references/more.md', digest: `sha256:${'b'.repeat(64)}`, size: 5 },
        ],
      },
    ],
  });
  const again = server({ resources: [{ uri: 'both://x', name: 'again-both' }], resourceTemplates: [], prompts: [], skills: [] });
  const servers: Record<string, ReturnType<typeof server>> = { first, second, prefixed, again };
  const bundles = [
    { name: 'first', mcpServer: { url: 'http://first/mcp' } },
    { name: 'rest', serviceDomain: 'http://rest' },
    { name: 'second', mcpServer: { url: 'http://second/mcp' } },
    { name: 'prefixed', namePrefix: 'p_', mcpServer: { url: 'http://prefixed/mcp' } },
    { name: 'again', namePrefix: 'a_', mcpServer: { url: 'http://again/mcp' } },
  ] as BundleSettings[];
  const upstreams = {
    connection: async (bundle: string) => servers[bundle].connection,
    held: new HeldCalls({ max: 1, maxPerBundle: 1 }),
  } as unknown as McpUpstreams;
  const features = new FederatedFeatures(bundles, upstreams, {
    ttlMillis: 60_000,
    maxCallMillis: 30_000,
    requestStates: RequestStateSeal.fromSecret(undefined, 60),
    bindState: (method, target, args) => ({ target: `${method} ${target}`, principal: '', request: JSON.stringify(args ?? {}) }),
    now: () => 0,
    logger,
  });

  it("merges the servers' lists in configuration order: the first keeps a shared URI or name, the prefixed bundle's are its own", async () => {
    const lists = await features.lists();
    expect(lists.resources).toEqual([
      { uri: 'test://shared', name: 'first-shared' },
      { uri: 'test://first', name: 'first' },
      { uri: 'test://second', name: 'second' },
      { uri: 'prefixed+test://first', name: 'prefixed' },
      { uri: 'prefixed+both://x', name: 'prefixed-both' },
      { uri: 'again+both://x', name: 'again-both' },
    ]);
    expect(lists.resourceTemplates).toEqual([
      { uriTemplate: 'test://first/{id}', name: 'first-template' },
      { uriTemplate: 'test://second/{id}', name: 'second-template' },
      { uriTemplate: 'prefixed+prefixed://{id}', name: 'prefixed-template' },
    ]);
    expect(lists.prompts).toEqual([{ name: 'greet' }, { name: 'other' }, { name: 'p_greet' }]);
    expect(warnings).toContainEqual(['mcp_upstream_feature_collision', { bundle: 'second', leftOut: 2 }]);
  });

  it('reads from the server that lists the URI, whose template it fits, or whose namespace it is in', async () => {
    expect(await features.readResource('test://second', context)).toMatchObject({ result: { contents: [{ uri: 'test://second' }] } });
    expect(await features.readResource('test://first/7', context)).toMatchObject({ result: { contents: [{ uri: 'test://first/7' }] } });
    expect(await features.readResource('prefixed+test://first', context)).toEqual({
      result: { contents: [{ uri: 'prefixed+test://first', text: 'test://first (within the deadline, guid g-1)' }] },
    });
    expect(first.asked).toContain('read test://first/7');
    expect(second.asked).toEqual(['read test://second']);
    expect(prefixed.asked).toEqual(['read test://first']);
  });

  it("lists a namespaced server's skills as skill://<bundle>/..., digests and sizes untouched, and reads their files from it (issue 49)", async () => {
    expect((await features.lists()).skills).toEqual([
      {
        uri: 'skill://prefixed/notes/SKILL.md',
        frontmatter: { name: 'notes', description: 'Notes.' },
        resources: [
          { uri: 'skill://prefixed/notes/SKILL.md', digest: `sha256:${'a'.repeat(64)}`, size: 10 },
          { uri: 'skill://prefixed/notes/references/more.md', digest: `sha256:${'b'.repeat(64)}`, size: 5 },
        ],
      },
    ]);
    expect(await features.readResource('skill://prefixed/notes/references/more.md', context)).toMatchObject({
      result: { contents: [{ uri: 'skill://prefixed/notes/references/more.md' }] },
    });
    expect(prefixed.asked).toContain('read skill://notes/references/more.md');
  });

  it("reads a namespaced server's own URI, as a tool result links it, from that server and under that URI", async () => {
    expect(await features.readResource('prefixed://9', context)).toEqual({
      result: { contents: [{ uri: 'prefixed://9', text: 'prefixed://9 (within the deadline, guid g-1)' }] },
    });
    expect(prefixed.asked).toContain('read prefixed://9');
  });

  it('asks no server for a URI that two namespaced servers list, and names its namespaced forms instead', async () => {
    expect(await features.readResource('both://x', context)).toEqual({
      notFound: true,
      candidates: ['prefixed+both://x', 'again+both://x'],
    });
    expect([...prefixed.asked, ...again.asked].filter((asked) => asked.includes('both://'))).toEqual([]);
  });

  it("answers not found for a URI no server can have, and passes a server's refusal on as a failure", async () => {
    expect(await features.readResource('unknown://x', context)).toEqual({ notFound: true });
    expect(await features.readResource('prefixed+fail://x', context)).toMatchObject({ failed: { code: -32002 } });
  });

  it("gets a prompt from the server that lists it, by the server's own name", async () => {
    expect(await features.getPrompt('p_greet', { who: 'you' }, context)).toMatchObject({
      result: { messages: [{ content: { text: 'greet {"who":"you"}' } }] },
    });
    expect(prefixed.asked).toContain('get greet');
    expect(await features.getPrompt('other', undefined, context)).toMatchObject({ result: {} });
    expect(second.asked).toContain('get other');
    expect(await features.getPrompt('p_other', undefined, context)).toEqual({ notFound: true });
  });

  it("asks the server of a listed prompt or resource template for completions, by the server's own name or template", async () => {
    const argument = { name: 'id', value: 'a' };
    expect(await features.complete({ ref: { type: 'ref/prompt', name: 'p_greet' }, argument }, context)).toEqual({
      result: { completion: { values: ['a1'], hasMore: false } },
    });
    expect(await features.complete({ ref: { type: 'ref/resource', uri: 'prefixed+prefixed://{id}' }, argument }, context)).toMatchObject({
      result: {},
    });
    expect(prefixed.asked).toEqual(expect.arrayContaining(['complete greet id=a', 'complete prefixed://{id} id=a']));
    expect(await features.complete({ ref: { type: 'ref/prompt', name: 'p_other' }, argument }, context)).toEqual({ notFound: true });
    expect(await features.complete({ ref: { type: 'ref/resource', uri: 'prefixed://{id}' }, argument }, context)).toEqual({
      notFound: true,
    });
  });
});
