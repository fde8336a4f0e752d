import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { RecordingRestService } from '@toolmesh/test-peers/recording-rest-service';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { lintSourceCommand } from './lint-source-command';

const example = (file: string) => require.resolve(`@readme/oas-examples/${file}`);
const SAMPLE_MANIFEST = path.join(REPO_ROOT, 'config/local-core-tools-manifest-sample-v1.json');

/** Runs the command in this process, as main.ts does, and returns its exit code and what it wrote. */
async function lint(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await lintSourceCommand(argv, { write: (text: string) => (stdout += text) }, { write: (text: string) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('lint-source: what a document would become, before it is deployed', () => {
  it('Petstore 3.0: the selected operations as tools with their calls, the refused one with why, the rest not selected', async () => {
    const result = await lint(example('3.0/json/petstore.json'), '--operations', 'getPetById,placeOrder,deleteOrder,findPetsByStatus');
    expect(result).toEqual({
      code: 1,
      stderr: '',
      stdout: `OpenAPI document ${example('3.0/json/petstore.json')}
tools (3):
  getPetById        GET /pet/{petId}
  placeOrder        POST /store/order
  deleteOrder       DELETE /store/order/{orderId}
refused (1):
  findPetsByStatus  registry.operation_refused: security scheme petstore_auth is not one the gateway supplies (apiKey, HTTP bearer or basic)
not selected (16):
  POST /pet (addPet)
  PUT /pet (updatePet)
  GET /pet/findByTags (findPetsByTags)
  POST /pet/{petId} (updatePetWithForm)
  DELETE /pet/{petId} (deletePet)
  POST /pet/{petId}/uploadImage (uploadFile)
  GET /store/inventory (getInventory)
  GET /store/order/{orderId} (getOrderById)
  POST /user (createUser)
  POST /user/createWithArray (createUsersWithArrayInput)
  POST /user/createWithList (createUsersWithListInput)
  GET /user/login (loginUser)
  GET /user/logout (logoutUser)
  GET /user/{username} (getUserByName)
  PUT /user/{username} (updateUser)
  DELETE /user/{username} (deleteUser)
`,
    });
  });

  it('Petstore 3.1, selected by tag: every tool served, exit code 0', async () => {
    const result = await lint(example('3.1/json/petstore.json'), '--tags', 'store', '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      kind: 'openapi',
      tools: [
        { name: 'getInventory', call: 'GET /store/inventory' },
        { name: 'placeOrder', call: 'POST /store/order' },
        { name: 'getOrderById', call: 'GET /store/order/{orderId}' },
        { name: 'deleteOrder', call: 'DELETE /store/order/{orderId}' },
      ],
      refused: [],
      problems: [],
    });
  });

  it('the ReadMe API (3.1, 560 KB) by tag', async () => {
    const result = await lint(example('3.1/json/readme.json'), '--tags', 'API Keys');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`tools (5):
  createAPIKey  POST /projects/{subdomain}/apikeys
  getAPIKeys    GET /projects/{subdomain}/apikeys
  deleteAPIKey  DELETE /projects/{subdomain}/apikeys/{api_key_id}
  getAPIKey     GET /projects/{subdomain}/apikeys/{api_key_id}
  updateAPIKey  PATCH /projects/{subdomain}/apikeys/{api_key_id}
refused (0):
not selected (49):`);
  });

  it('Star Trek (3.0, 497 KB): operations without an operationId are refused, naming method and path', async () => {
    const result = await lint(example('3.0/json/star-trek.json'), '--tags', 'Animal');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`tools (0):
refused (3):
  GET /animal          registry.operation_refused: the operation has no operationId
  GET /animal/search   registry.operation_refused: the operation has no operationId
  POST /animal/search  registry.operation_refused: the operation has no operationId
not selected (117):`);
  });

  it('a manifest: its tools and their endpoints', async () => {
    const result = await lint(SAMPLE_MANIFEST);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^manifest .*local-core-tools-manifest-sample-v1\.json\ntools \(\d+\):\n {2}\S+ +POST http:\/\/tool-service\.invalid\//,
    );
    expect(result.stdout).not.toContain('not selected');
  });

  it('a broken document: refused as a whole, saying why', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'lint-')), 'broken.json');
    writeFileSync(
      file,
      JSON.stringify({ openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/x': { get: { responses: 'none' } } } }),
    );
    const result = await lint(file);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'refused as a whole (a bundle would keep its last good tools):\n  http://tool-service.invalid: invalid OpenAPI document',
    );
  });

  it('reads a document over HTTP', async () => {
    const service = await new RecordingRestService().start();
    try {
      service.serve('/openapi/petstore.json', require(example('3.1/json/petstore.json')));
      const result = await lint(`${service.url}/openapi/petstore.json`, '--operations', 'getOrderById');
      expect(result.stdout).toContain('tools (1):\n  getOrderById  GET /store/order/{orderId}');
      expect(service.requests).toEqual([]); // the document only: nothing is called
    } finally {
      await service.stop();
    }
  });

  describe("GitHub's published description (13 MB; @octokit/openapi, ADR 0026)", () => {
    const github = require.resolve('@octokit/openapi/generated/api.github.com.json');

    it('names operations by the stated rule or by --name, and --output-schemas is read', async () => {
      const result = await lint(github, '--operations', 'repos/get,repos/get-content', '--name', 'repos/get=get_repository', '--json');
      expect(result.code).toBe(0);
      expect((JSON.parse(result.stdout) as { tools: unknown[] }).tools).toEqual([
        { name: 'get_repository', call: 'GET /repos/{owner}/{repo}' },
        { name: 'repos_get_content', call: 'GET /repos/{owner}/{repo}/contents/{path}' },
      ]);
      expect((await lint(github, '--name', 'repos/get')).code).toBe(2);
      expect((await lint(github, '--output-schemas', 'strict')).code).toBe(2);
    });

    it('refuses it under a lower --max-document-bytes, saying its size and the setting', async () => {
      expect(await lint(github, '--max-document-bytes', '8388608')).toEqual({
        code: 1,
        stdout: '',
        stderr: `gateway lint-source: document file ${github} is 13001822 bytes, over the limit of 8388608 bytes (--max-document-bytes); raise --max-document-bytes to read it\n`,
      });
    });
  });

  it('usage errors exit 2; an unreadable file exits 1', async () => {
    expect((await lint()).code).toBe(2);
    expect((await lint('a', 'b')).code).toBe(2);
    expect((await lint('--bogus', 'x')).code).toBe(2);
    expect(await lint('/nonexistent/doc.json')).toMatchObject({ code: 1, stderr: expect.stringContaining('cannot be read') });
  });

  it("is the built gateway's subcommand, with its own --help", async () => {
    const main = path.join(REPO_ROOT, 'dist/apps/gateway/main.js');
    const help = await promisify(execFile)(process.execPath, [main, 'lint-source', '--help']);
    expect(help.stdout).toContain('toolmesh-gateway lint-source <file-or-url>');
    const failed = await promisify(execFile)(process.execPath, [
      main,
      'lint-source',
      example('3.0/json/petstore.json'),
      '--operations',
      'findPetsByStatus',
    ]).catch((error: { code: number; stdout: string }) => error);
    expect(failed).toMatchObject({ code: 1, stdout: expect.stringContaining('findPetsByStatus') });
  });
});
