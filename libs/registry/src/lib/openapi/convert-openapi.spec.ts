import { readFileSync } from 'node:fs';

import { DocumentServer } from '@toolmesh/test-peers/document-server';

import { convertOpenApi } from './convert-openapi';

const published = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(require.resolve(`@readme/oas-examples/${file}`), 'utf8')) as Record<string, unknown>;
const select = (operations: string[], tags: string[] = []) => ({ operations, tags });
const SERVICE = 'http://pets.internal:8080/v2';

/** A small document of our own, for what the published ones do not have. */
const documentWith = (operation: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1.2.3' },
  paths: { '/things/{id}': { get: { operationId: 'getThing', responses: { '200': { description: 'ok' } }, ...operation } } },
  ...extra,
});
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

describe('convertOpenApi', () => {
  it('turns the Petstore 3.0 operations the allowlist names into tools with their bindings, and refuses what it cannot call', async () => {
    const converted = await convertOpenApi(
      published('3.0/json/petstore.json'),
      select(['getPetById', 'loginUser', 'findPetsByStatus']),
      SERVICE,
    );
    expect(converted.manifest.revision).toBe('1.0.0');
    expect(converted.manifest.tools.map((tool) => tool['name'])).toEqual(['getPetById', 'loginUser']);
    expect(converted.manifest.tools[0]).toMatchObject({ endpoint: '/pet/', annotations: { readOnlyHint: true } });
    expect(converted.bindings.get('getPetById')).toEqual({
      method: 'GET',
      path: ['/v2/pet/', { argument: 'petId' }],
      query: [],
      headers: [],
      credentials: [{ scheme: 'api_key', kind: 'header', name: 'api_key' }],
    });
    expect(converted.bindings.get('loginUser')).toMatchObject({ path: ['/v2/user/login'], query: ['username', 'password'] });
    expect(converted.refused).toEqual([
      { name: 'findPetsByStatus', code: 'registry.operation_refused', message: expect.stringContaining('petstore_auth') },
    ]);
    expect(converted.ignored).toContain('POST /pet (addPet)');
  });

  it('selects by tag and by the x-toolmesh-tool extension, which can also keep an operation out and set annotations and a timeout', async () => {
    const document = published('3.1/json/petstore.json');
    const paths = document['paths'] as Record<string, Record<string, Record<string, unknown>>>;
    paths['/store/inventory']['get']['x-toolmesh-tool'] = false;
    paths['/user/{username}']['get']['x-toolmesh-tool'] = { annotations: { openWorldHint: false }, timeoutMillis: 1234 };
    const converted = await convertOpenApi(document, { ...select([], ['store']), timeoutMillis: 5000 }, SERVICE);
    expect(converted.manifest.tools.map((tool) => [tool['name'], tool['timeoutMillis']])).toEqual([
      ['placeOrder', 5000],
      ['getOrderById', 5000],
      ['deleteOrder', 5000],
      ['getUserByName', 1234],
    ]);
    expect(converted.manifest.tools[3]['annotations']).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  });

  it("keeps each tool's operation tags, for a gateway's curated endpoints to select by (issue 46)", async () => {
    const converted = await convertOpenApi(published('3.1/json/petstore.json'), select(['getPetById'], ['store']), SERVICE);
    expect(converted.tags.get('getPetById')).toEqual(['pet']);
    expect(converted.tags.get('placeOrder')).toEqual(['store']);
  });

  it('reads OpenAPI 3.0 schemas as JSON Schema: nullable and boolean exclusive bounds', async () => {
    const converted = await convertOpenApi(
      documentWith({
        parameters: [
          idParameter,
          { name: 'n', in: 'query', schema: { type: 'integer', nullable: true, minimum: 0, exclusiveMinimum: true } },
        ],
      }),
      select(['getThing']),
      SERVICE,
    );
    expect((converted.manifest.tools[0]['inputSchema'] as { properties: object }).properties).toEqual({
      id: { type: 'string' },
      n: { type: ['integer', 'null'], exclusiveMinimum: 0 },
    });
  });

  it.each([
    [
      'a required cookie',
      { parameters: [idParameter, { name: 'c', in: 'cookie', required: true, schema: { type: 'string' } }] },
      'cookie parameter c',
    ],
    [
      'an object in the query',
      { parameters: [idParameter, { name: 'o', in: 'query', schema: { type: 'object' } }] },
      'parameter o: an object',
    ],
    ['an array in the path', { parameters: [{ ...idParameter, schema: { type: 'array' } }] }, 'an array is not placed in the path'],
    ['a matrix style', { parameters: [{ ...idParameter, style: 'matrix' }] }, 'style matrix'],
    [
      'a parameter named body',
      { parameters: [idParameter, { name: 'body', in: 'query', schema: { type: 'string' } }] },
      'two arguments would be named body',
    ],
    ['an undeclared path parameter', {}, 'not a declared path parameter'],
    [
      'a required form body',
      { parameters: [idParameter], requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: {} } } } },
      'not JSON',
    ],
  ])('refuses an operation with %s, saying why', async (_, operation, reason) => {
    const converted = await convertOpenApi(documentWith(operation), select(['getThing', 'missingOne']), SERVICE);
    expect(converted.manifest.tools).toEqual([]);
    expect(converted.refused).toEqual([
      { name: 'getThing', code: 'registry.operation_refused', message: expect.stringContaining(reason) },
      { name: 'missingOne', code: 'registry.operation_refused', message: expect.stringContaining('no such operation') },
    ]);
  });

  it('refuses a document that is not a valid OpenAPI 3.0 or 3.1 document, saying where', async () => {
    await expect(convertOpenApi({ swagger: '2.0' }, select([]), SERVICE)).rejects.toMatchObject({ code: 'registry.openapi_invalid' });
    await expect(convertOpenApi(documentWith({ responses: 'none' }), select([]), SERVICE)).rejects.toMatchObject({
      code: 'registry.openapi_invalid',
      message: expect.stringContaining('invalid OpenAPI document'),
    });
  });

  describe('what validating a document costs (issue 43, item 2)', () => {
    const queryParameters = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `q${i}`, in: 'query', schema: { type: 'string' } }));

    it('refuses an operation whose parameters hold more JSON values than maxSchemaNodes on its own, before validating them', async () => {
      // Each parameter is 5 values (itself, name, in, schema, type), its array one more: 100 are 501.
      const document = documentWith(
        { parameters: [idParameter] },
        {
          paths: {
            '/things/{id}': { get: { operationId: 'getThing', parameters: [idParameter], responses: { '200': { description: 'ok' } } } },
            '/wide': { get: { operationId: 'wide', parameters: queryParameters(100), responses: { '200': { description: 'ok' } } } },
          },
        },
      );
      const converted = await convertOpenApi(document, select(['getThing', 'wide']), SERVICE, 500);
      expect(converted.manifest.tools.map((tool) => tool['name'])).toEqual(['getThing']);
      expect(converted.refused).toEqual([
        {
          name: 'wide',
          code: 'registry.schema_too_large',
          message: "its parameters hold more than 500 JSON values (mcp.catalogue.maxSchemaNodes), over what its tool's inputSchema may",
        },
      ]);
      expect((await convertOpenApi(document, select(['getThing', 'wide']), SERVICE, 501)).manifest.tools).toHaveLength(2);
    });

    it('reads an OpenAPI 3.0 document with 10,000 parameters and 10,000 tags in a fraction of a second', async () => {
      // The 3.0 schema's uniqueItems compares every pair of both: 11.5 s for the parameters before the bound.
      const tags = Array.from({ length: 10_000 }, (_, i) => ({ name: `tag${i}` }));
      const document = {
        ...documentWith({ parameters: [idParameter] }, { tags }),
        paths: {
          '/things/{id}': { get: { operationId: 'getThing', parameters: [idParameter], responses: { '200': { description: 'ok' } } } },
          '/wide': { get: { operationId: 'wide', parameters: queryParameters(10_000), responses: { '200': { description: 'ok' } } } },
        },
      };
      await convertOpenApi(documentWith({ parameters: [idParameter] }), select([]), SERVICE); // the library loaded and its schema compiled
      const started = process.cpuUsage();
      const converted = await convertOpenApi(document, select(['getThing', 'wide']), SERVICE);
      expect(process.cpuUsage(started).user / 1e6).toBeLessThan(2);
      expect(converted.manifest.tools.map((tool) => tool['name'])).toEqual(['getThing']);
      expect(converted.refused).toEqual([expect.objectContaining({ name: 'wide', code: 'registry.schema_too_large' })]);
    });
  });

  describe('tool names (GitHub-style operationIds, issue 45)', () => {
    /** One GET operation per operationId, each on a path of its own. */
    const documentOf = (...operationIds: string[]) => ({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: Object.fromEntries(
        operationIds.map((operationId, index) => [
          `/op${index}`,
          {
            get: {
              operationId,
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
            },
          },
        ]),
      ),
    });
    const namesOf = (converted: { manifest: { tools: Array<Record<string, unknown>> } }) =>
      converted.manifest.tools.map((tool) => tool['name']);

    it('keeps an operationId that is a tool name, and sanitises any other: each run of other characters than letters, digits and _ is one _', async () => {
      const converted = await convertOpenApi(
        documentOf('repos/get-content', 'getPetById', 'place-order.v2', 'a//b..c'),
        select(['repos/get-content', 'getPetById', 'place-order.v2', 'a//b..c']),
        SERVICE,
      );
      expect(namesOf(converted)).toEqual(['repos_get_content', 'getPetById', 'place-order.v2', 'a_b_c']);
      expect(converted.bindings.get('repos_get_content')).toMatchObject({ method: 'GET', path: ['/v2/op0'] });
      expect(converted.refused).toEqual([]);
    });

    it('refuses both operations that would have one name, each naming the other, and takes a name the bundle gives', async () => {
      const document = documentOf('repos/get', 'repos_get', 'pulls/get');
      const operations = ['repos/get', 'repos_get', 'pulls/get'];
      const collided = await convertOpenApi(document, select(operations), SERVICE);
      expect(namesOf(collided)).toEqual(['pulls_get']);
      expect(collided.refused).toEqual([
        {
          name: 'repos/get',
          code: 'registry.name_collision',
          message: expect.stringContaining('repos_get is also that of operation repos_get'),
        },
        { name: 'repos_get', code: 'registry.name_collision', message: expect.stringContaining('also that of operation repos/get') },
      ]);
      const named = await convertOpenApi(document, { ...select(operations), names: { 'repos/get': 'get_repository' } }, SERVICE);
      expect(namesOf(named)).toEqual(['get_repository', 'repos_get', 'pulls_get']);
      const badName = await convertOpenApi(document, { ...select(['pulls/get']), names: { 'pulls/get': 'pulls get' } }, SERVICE);
      expect(badName.refused).toEqual([
        {
          name: 'pulls/get',
          code: 'registry.operation_refused',
          message: expect.stringContaining('openapi.names gives it, pulls get, is not'),
        },
      ]);
    });

    it('advertises no outputSchema with outputSchemas: none, and one by default', async () => {
      const document = documentOf('repos/get');
      expect((await convertOpenApi(document, select(['repos/get']), SERVICE)).manifest.tools[0]).toHaveProperty('outputSchema');
      const none = await convertOpenApi(document, { ...select(['repos/get']), outputSchemas: 'none' }, SERVICE);
      expect(none.manifest.tools[0]).not.toHaveProperty('outputSchema');
    });
  });

  describe('a $ref to another server', () => {
    let remote: DocumentServer;
    beforeAll(async () => {
      remote = await new DocumentServer().start();
      remote.serve('/schema.json', { json: { type: 'string' } });
    });
    afterAll(() => remote?.stop());

    it('is never fetched: the operation that uses it is refused alone', async () => {
      const document = documentWith({ parameters: [{ ...idParameter, schema: { $ref: `${remote.url}/schema.json` } }] });
      const paths = document.paths as Record<string, Record<string, unknown>>;
      paths['/plain'] = { get: { operationId: 'plain', responses: { '200': { description: 'ok' } } } };
      const converted = await convertOpenApi(document, select(['getThing', 'plain']), SERVICE);
      expect(converted.manifest.tools.map((tool) => tool['name'])).toEqual(['plain']);
      expect(converted.refused).toEqual([
        { name: 'getThing', code: 'registry.openapi_remote_ref', message: expect.stringContaining(`${remote.url}/schema.json`) },
      ]);
      expect(remote.fetches('/schema.json')).toBe(0);
    });
  });
});
