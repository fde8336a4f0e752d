import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { RecordingRestService } from '@toolmesh/test-peers/recording-rest-service';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import type { BundleSettings, GatewayConfig } from '../config/gateway-config';
import { isListChanged, openListen, openStream } from '../test-support/notification-streams';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';

/** Published documents from @readme/oas-examples, not written for these tests. */
const published = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(require.resolve(`@readme/oas-examples/${file}`), 'utf8')) as Record<string, unknown>;

const secretFile = (value: string): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-secret-')), 'token');
  writeFileSync(file, `${value}\n`);
  return file;
};

interface Status {
  bundles: Array<{
    bundle: string;
    toolCount: number;
    refusedTools: Array<{ name: string; code: string; message: string }>;
    lastError: { code: string; message: string } | null;
  }>;
}

/** One gateway in front of one OpenAPI bundle served by `service` (documents at /openapi/, API under /api). */
async function gatewayFor(
  service: RecordingRestService,
  bundle: Omit<BundleSettings, 'serviceDomain'>,
  adjust?: (config: GatewayConfig) => void,
  env?: Record<string, string>,
): Promise<TestGateway> {
  return startTestGateway(
    service.url,
    (config) => {
      config.mcp.bundles = [{ ...bundle, serviceDomain: `${service.url}/api` }];
      adjust?.(config);
    },
    { ...(env && { env }) },
  );
}

const toolNames = async (gateway: TestGateway) =>
  ((await gateway.rpc('tools/list')).result?.tools as Array<{ name: string }>).map((tool) => tool.name).sort();
const call = (gateway: TestGateway, name: string, args: Record<string, unknown>) => gateway.rpc('tools/call', { name, arguments: args });
const status = async (gateway: TestGateway) =>
  (await (await fetch(`${gateway.gateway.managementUrl}/actuator/toolBundles`)).json()) as Status;

describe('OpenAPI documents as a tool source (issue 27)', () => {
  let service: RecordingRestService;
  beforeAll(async () => {
    service = await new RecordingRestService().start();
  });
  afterAll(() => service?.stop());
  // Whatever a test sent, the service saw only its own host and paths under the service domain's.
  afterEach(() => {
    for (const { host, target } of service.requests)
      expect({ host, underApi: target.startsWith('/api/') }).toEqual({ host: new URL(service.url).host, underApi: true });
  });
  beforeEach(() => {
    service.requests.length = 0;
    service.answer = () => ({
      status: 404,
      contentType: 'application/problem+json',
      json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such resource' },
    });
  });

  describe('the Petstore 3.0 document, an allowlist of operationIds and an apiKey from a mounted secret', () => {
    const apiKey = 'petstore-secret-4711';
    let gateway: TestGateway;
    beforeAll(async () => {
      service.serve('/openapi/petstore-3.0.json', published('3.0/json/petstore.json'));
      gateway = await gatewayFor(service, {
        name: 'petstore',
        openapi: {
          documentUrl: `${service.url}/openapi/petstore-3.0.json`,
          operations: ['getPetById', 'getOrderById', 'getUserByName', 'loginUser', 'placeOrder', 'deleteOrder', 'findPetsByStatus'],
          credentials: { api_key: { file: secretFile(apiKey) } },
        },
      });
    });
    afterAll(() => gateway?.stop());

    it('lists the selected operations only, with annotations from their methods, and refuses the one it cannot call', async () => {
      expect(await toolNames(gateway)).toEqual(['deleteOrder', 'getOrderById', 'getPetById', 'getUserByName', 'loginUser', 'placeOrder']);
      const tools = (await gateway.rpc('tools/list')).result?.tools as Array<Record<string, unknown>>;
      const byName = (name: string) => tools.find((tool) => tool.name === name) as Record<string, unknown>;
      expect(byName('getPetById')).toMatchObject({
        description: 'Find pet by ID\n\nReturns a single pet',
        annotations: { readOnlyHint: true, idempotentHint: true },
        inputSchema: { type: 'object', properties: { petId: { type: 'integer' } }, required: ['petId'] },
        outputSchema: { type: 'object', required: ['name', 'photoUrls'] },
      });
      expect(byName('deleteOrder')).toMatchObject({ annotations: { destructiveHint: true } });
      expect(byName('placeOrder')).toMatchObject({ inputSchema: { properties: { body: { type: 'object' } } } });
      expect((await status(gateway)).bundles[0].refusedTools).toEqual([
        { name: 'findPetsByStatus', code: 'registry.operation_refused', message: expect.stringContaining('security scheme petstore_auth') },
      ]);
    });

    it('calls an operation with its method and path under the service domain, the credential from the secret, and returns the JSON reply', async () => {
      const pet = { id: 7, name: 'Rex', photoUrls: [], status: 'available' };
      service.answer = () => ({ status: 200, json: pet });
      const reply = await call(gateway, 'getPetById', { petId: 7 });
      expect(reply.result).toMatchObject({ isError: false, structuredContent: pet });
      expect(service.requests).toEqual([expect.objectContaining({ method: 'GET', target: '/api/pet/7', host: new URL(service.url).host })]);
      expect(service.requests[0].headers).toMatchObject({ api_key: apiKey, guid: expect.any(String), 'x-request-id': expect.any(String) });
      expect(gateway.logs()).not.toContain(apiKey);
    });

    it('refuses invalid arguments naming the field, and calls nothing', async () => {
      const reply = await call(gateway, 'getPetById', { petId: 'seven' });
      expect(reply.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('arguments.petId') }] });
      expect((await call(gateway, 'getPetById', { petId: 7, extra: 1 })).result?.isError).toBe(true);
      expect(service.requests).toEqual([]);
    });

    it('sends a path value as one encoded segment: ../admin?x=1# reaches no other path', async () => {
      const reply = await call(gateway, 'getUserByName', { username: '../admin?x=1#' });
      expect(service.requests.map((request) => request.target)).toEqual(['/api/user/..%2Fadmin%3Fx%3D1%23']);
      // The service's RFC 9457 problem, readable for the model.
      expect(reply.result).toMatchObject({
        isError: true,
        content: [{ text: 'Tool getUserByName failed: the tool service answered HTTP 404: Not Found: no such resource' }],
      });
      expect((await call(gateway, 'getUserByName', { username: '..' })).result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining('arguments.username') }],
      });
      expect(service.requests).toHaveLength(1);
    });

    it('sends query values encoded, and a JSON body as the body', async () => {
      service.answer = () => ({ status: 200, json: 'logged in' });
      await call(gateway, 'loginUser', { username: 'a b&c=d', password: 'p/q#r' });
      service.answer = () => ({ status: 200, json: { id: 1, petId: 2, quantity: 1, status: 'placed' } });
      const placed = await call(gateway, 'placeOrder', { body: { id: 1, petId: 2, quantity: 1 } });
      expect(placed.result).toMatchObject({ isError: false, structuredContent: { id: 1, status: 'placed' } });
      expect(service.requests.map(({ method, target, body }) => ({ method, target, body }))).toEqual([
        { method: 'GET', target: '/api/user/login?username=a%20b%26c%3Dd&password=p%2Fq%23r', body: '' },
        { method: 'POST', target: '/api/store/order', body: '{"id":1,"petId":2,"quantity":1}' },
      ]);
      expect(service.requests[1].headers['content-type']).toBe('application/json');
    });
  });

  describe('the Petstore 3.1 document', () => {
    let gateway: TestGateway;
    beforeAll(async () => {
      service.serve('/openapi/petstore-3.1.json', published('3.1/json/petstore.json'));
      gateway = await gatewayFor(service, {
        name: 'petstore31',
        openapi: { documentFile: require.resolve('@readme/oas-examples/3.1/json/petstore.json'), operations: 'getOrderById, deleteOrder' },
      });
    });
    afterAll(() => gateway?.stop());

    it('serves the operations named in a comma-separated list, validated by their 3.1 schemas', async () => {
      expect(await toolNames(gateway)).toEqual(['deleteOrder', 'getOrderById']);
      expect((await call(gateway, 'getOrderById', { orderId: 99 })).result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining('arguments.orderId') }],
      });
      service.answer = () => ({ status: 200, json: { id: 3, status: 'approved' } });
      expect((await call(gateway, 'getOrderById', { orderId: 3 })).result).toMatchObject({ isError: false, structuredContent: { id: 3 } });
      service.answer = () => ({ status: 204 });
      expect((await call(gateway, 'deleteOrder', { orderId: 3 })).result).toMatchObject({
        isError: false,
        content: [{ text: 'Tool deleteOrder succeeded with no content.' }],
      });
      expect(service.requests.map(({ method, target }) => `${method} ${target}`)).toEqual([
        'GET /api/store/order/3',
        'DELETE /api/store/order/3',
      ]);
    });

    it('reads the same document published in YAML into the same tools', async () => {
      const fromYaml = await gatewayFor(service, {
        name: 'petstore31yaml',
        openapi: { documentFile: require.resolve('@readme/oas-examples/3.1/yaml/petstore.yaml'), operations: 'getOrderById, deleteOrder' },
      });
      try {
        const tools = async (from: TestGateway) => (await from.rpc('tools/list')).result?.tools as unknown[];
        expect(await tools(fromYaml)).toEqual(await tools(gateway));
      } finally {
        await fromYaml.stop();
      }
    });
  });

  describe('a larger published document (ReadMe API, OpenAPI 3.1, 560 KB) selected by tag, with a bearer token from the environment', () => {
    const token = 'readme-token-0815';
    let gateway: TestGateway;
    beforeAll(async () => {
      service.serve('/openapi/readme.json', published('3.1/json/readme.json'));
      gateway = await gatewayFor(
        service,
        {
          name: 'readme',
          openapi: {
            documentUrl: `${service.url}/openapi/readme.json`,
            tags: ['API Keys'],
            credentials: { bearer: { env: 'README_TOKEN' } },
          },
        },
        undefined,
        { README_TOKEN: token },
      );
    });
    afterAll(() => gateway?.stop());

    it('lists the tagged operations, validates by their patterns, and calls one with its query values and the token', async () => {
      expect(await toolNames(gateway)).toEqual(['createAPIKey', 'deleteAPIKey', 'getAPIKey', 'getAPIKeys', 'updateAPIKey']);
      // The document's own pattern for an API key id: 24 hex digits.
      expect((await call(gateway, 'getAPIKey', { subdomain: 'docs', api_key_id: 'k/1' })).result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining('arguments.api_key_id must match pattern') }],
      });
      const page = { total: 0, page: 2, per_page: 5, paging: { next: '', previous: '', first: '', last: '' }, data: [] };
      service.answer = () => ({ status: 200, json: page });
      const reply = await call(gateway, 'getAPIKeys', { subdomain: 'docs', page: 2, per_page: 5 });
      expect(reply.result).toMatchObject({ isError: false, structuredContent: page });
      expect(service.requests.map(({ method, target }) => `${method} ${target}`)).toEqual([
        'GET /api/projects/docs/apikeys?page=2&per_page=5',
      ]);
      expect(service.requests[0].headers.authorization).toBe(`Bearer ${token}`);
      expect(gateway.logs()).not.toContain(token);
    });
  });

  describe('a document that changes, then breaks', () => {
    const petstore = published('3.0/json/petstore.json');
    const without = (pathToDrop: string) => ({
      ...petstore,
      paths: Object.fromEntries(Object.entries(petstore.paths as object).filter(([key]) => key !== pathToDrop)),
    });
    let gateway: TestGateway;
    beforeAll(async () => {
      service.serve('/openapi/store.json', without('/store/inventory'));
      gateway = await gatewayFor(
        service,
        {
          name: 'store',
          openapi: { documentUrl: `${service.url}/openapi/store.json`, tags: ['store'], credentials: { api_key: { env: 'STORE_KEY' } } },
        },
        (config) => (config.mcp.catalogue.requestedRefreshIntervalMillis = 0),
        { STORE_KEY: 'k' },
      );
    });
    afterAll(() => gateway?.stop());
    const refresh = () => fetch(`${gateway.gateway.managementUrl}/actuator/toolBundles/store/refresh`, { method: 'POST' });

    it('reaches 2025 and 2026 clients as list_changed when an operation is added and one removed', async () => {
      expect(await toolNames(gateway)).toEqual(['deleteOrder', 'getOrderById', 'placeOrder']);
      const legacy = await openStream(gateway.url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
      const modern = await openListen(gateway.url, 'openapi');
      await modern.next((message) => message.method === 'notifications/subscriptions/acknowledged');
      service.serve('/openapi/store.json', without('/store/order/{orderId}'));
      expect((await refresh()).status).toBe(200);
      expect(await legacy.next(isListChanged)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      expect(await modern.next(isListChanged)).toMatchObject({
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'openapi' } },
      });
      expect(await toolNames(gateway)).toEqual(['getInventory', 'placeOrder']);
      legacy.close();
      modern.close();
    });

    it('keeps the last good tools when the document breaks, and shows why in toolBundles', async () => {
      service.serve('/openapi/store.json', {
        openapi: '3.0.3',
        info: { title: 'broken', version: '2' },
        paths: { '/x': { get: { responses: 'none' } } },
      });
      expect((await refresh()).status).toBe(502); // the refresh failed; the bundle's row says why
      const row = (await status(gateway)).bundles[0];
      expect(row).toMatchObject({
        toolCount: 2,
        lastError: { code: 'registry.openapi_invalid', message: expect.stringContaining('invalid OpenAPI document') },
      });
      expect(await toolNames(gateway)).toEqual(['getInventory', 'placeOrder']);
      service.answer = () => ({ status: 200, json: { available: 3 } });
      expect((await call(gateway, 'getInventory', {})).result).toMatchObject({ isError: false, structuredContent: { available: 3 } });
    });
  });

  describe('header parameters that say where the request goes or how it is framed', () => {
    const withHeader = (operationId: string, header: string) => ({
      get: {
        operationId,
        tags: ['headers'],
        parameters: [{ name: header, in: 'header', required: false, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    });
    const refused = { Host: 'setHost', Connection: 'setConnection', 'Content-Length': 'setLength', 'Transfer-Encoding': 'setEncoding' };
    let gateway: TestGateway;
    beforeAll(async () => {
      service.serve('/openapi/headers.json', {
        openapi: '3.0.3',
        info: { title: 'headers', version: '1' },
        paths: {
          ...Object.fromEntries(
            Object.entries(refused).map(([header, operationId]) => [`/${operationId}`, withHeader(operationId, header)]),
          ),
          '/tenant': withHeader('setTenant', 'X-Tenant'),
        },
      });
      gateway = await gatewayFor(service, {
        name: 'headers',
        openapi: { documentUrl: `${service.url}/openapi/headers.json`, tags: ['headers'] },
      });
    });
    afterAll(() => gateway?.stop());

    it('refuses an operation with a Host, Connection, Content-Length or Transfer-Encoding parameter as it loads, and serves the rest', async () => {
      expect(await toolNames(gateway)).toEqual(['setTenant']);
      const { refusedTools } = (await status(gateway)).bundles[0];
      expect(refusedTools.map(({ name, code }) => ({ name, code })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
        Object.values(refused)
          .sort()
          .map((name) => ({ name, code: 'registry.openapi_header_refused' })),
      );
      expect(refusedTools.find((tool) => tool.name === 'setHost')?.message).toContain('header parameter Host');
      // A caller can still not reach the refused operation, nor another virtual host through it.
      expect((await call(gateway, 'setHost', { Host: 'internal-admin.test.invalid' })).error?.code).toBe(-32001);
      service.answer = () => ({ status: 200, json: { ok: true } });
      expect((await call(gateway, 'setTenant', { 'X-Tenant': 'acme' })).result).toMatchObject({ isError: false });
      expect(service.requests.map((request) => request.headers['x-tenant'])).toEqual(['acme']);
    });
  });

  describe('config/examples/openapi.yaml, run as documented (the built gateway)', () => {
    it('serves the operations OPENAPI_OPERATIONS names from the document at OPENAPI_URL, calling OPENAPI_SERVICE_URL', async () => {
      service.serve('/openapi/example.json', published('3.0/json/petstore.json'));
      const gateway = await spawnGateway(path.join(REPO_ROOT, 'config/examples/openapi.yaml'), {
        OPENAPI_URL: `${service.url}/openapi/example.json`,
        OPENAPI_SERVICE_URL: `${service.url}/api`,
        OPENAPI_OPERATIONS: 'getOrderById,deleteOrder',
        PORT: '0',
        MANAGEMENT_PORT: '0',
      });
      try {
        const rpc = async (method: string, params?: object) =>
          (await (
            await fetch(gateway.match[1], {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params && { params }) }),
            })
          ).json()) as { result: { tools?: Array<{ name: string }>; structuredContent?: unknown } };
        expect((await rpc('tools/list')).result.tools?.map((tool) => tool.name)).toEqual(['getOrderById', 'deleteOrder']);
        service.answer = () => ({ status: 200, json: { id: 5, status: 'placed' } });
        expect((await rpc('tools/call', { name: 'getOrderById', arguments: { orderId: 5 } })).result.structuredContent).toEqual({
          id: 5,
          status: 'placed',
        });
        expect(service.requests.map(({ method, target }) => `${method} ${target}`)).toEqual(['GET /api/store/order/5']);
      } finally {
        await gateway.stop();
      }
    }, 90_000);
  });
});
