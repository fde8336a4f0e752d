import { writeGatewayConfig } from '@toolmesh/test-peers/gateway-process';

import { useDocumentGateway } from '../test-support/document-gateway';

/**
 * Issue 43, item 2, against the built gateway as its own process: a tool whose schema is too large to
 * compile cheaply (10,000 patterned properties took 55.7 s of event loop; an OpenAPI operation with
 * 10,000 parameters, 11.5 s) is refused alone, at once, while the bundle's other tools are served and a
 * neighbour's calls and liveness keep answering.
 */
const SIZE = 10_000;
const manifest = {
  revision: 'wide-1',
  tools: [
    {
      name: 'wide_tool',
      endpoint: '/tools/echo',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: SIZE }, (_, i) => [`p${i}`, { type: 'string', pattern: `^v${i}-[a-z]*$` }])),
      },
    },
    { name: 'plain_echo', endpoint: '/tools/echo', inputSchema: { type: 'object' } },
  ],
};
const respond = { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } } };
const openapi = {
  openapi: '3.0.3',
  info: { title: 'wide', version: '1' },
  paths: {
    '/wide': {
      get: {
        operationId: 'wide_operation',
        parameters: Array.from({ length: SIZE }, (_, i) => ({ name: `q${i}`, in: 'query', schema: { type: 'string' } })),
        ...respond,
      },
    },
    '/echo': { get: { operationId: 'api_echo', ...respond } },
  },
};

interface Status {
  bundles: Array<{ bundle: string; refusedTools: Array<{ name: string; code: string; message: string }> }>;
}

type ListOrCall = { result?: { isError?: boolean; tools?: Array<{ name: string }> } };

describe('hostile schema sizes (built gateway process, real tool service)', () => {
  const running = useDocumentGateway(
    (service) =>
      service
        .serve('/tool-manifest', { json: manifest })
        .serve('/openapi.json', { json: openapi })
        .serve('/tools/echo', { json: { data: { echoed: true } } })
        .serve('/echo', { json: { echoed: true } }),
    (url) =>
      writeGatewayConfig(`server: { port: 0, managementPort: 0 }
mcp:
  bundles:
    - { name: sample, serviceDomain: "${url}", manifestPath: /tool-manifest }
    - { name: api, serviceDomain: "${url}", openapi: { documentUrl: "${url}/openapi.json", operations: [wide_operation, api_echo] } }
`),
  );
  const rpc = (method: string, params: unknown) => running().rpc<ListOrCall>(method, params);

  it('refuses the over-large tool and operation alone, says why in toolBundles, and serves the rest', async () => {
    const started = performance.now();
    const list = await rpc('tools/list', {});
    // Compiled as before the limit, the manifest's tool alone took about a minute: the catalogue was
    // loaded for this first list only after it.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(list.result?.tools?.map((tool) => tool.name).sort()).toEqual(['api_echo', 'plain_echo']);

    const { managementUrl } = running();
    const status = (await (await fetch(`${managementUrl}/actuator/toolBundles`)).json()) as Status;
    const refused = Object.fromEntries(status.bundles.map((bundle) => [bundle.bundle, bundle.refusedTools]));
    expect(refused).toEqual({
      sample: [
        {
          name: 'wide_tool',
          code: 'registry.schema_too_large',
          message: "the tool's inputSchema and outputSchema hold more than 5000 JSON values (mcp.catalogue.maxSchemaNodes)",
        },
      ],
      api: [
        { name: 'wide_operation', code: 'registry.schema_too_large', message: expect.stringContaining('mcp.catalogue.maxSchemaNodes') },
      ],
    });

    expect((await rpc('tools/call', { name: 'plain_echo', arguments: {} })).result?.isError).toBe(false);
    expect((await rpc('tools/call', { name: 'api_echo', arguments: {} })).result?.isError).toBe(false);
    expect((await fetch(`${managementUrl}/actuator/health/liveness`)).status).toBe(200);
  });
});
