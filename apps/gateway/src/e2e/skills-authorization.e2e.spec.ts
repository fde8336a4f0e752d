import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';

import { startTestGateway, type TestGateway } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

/**
 * Skills per caller with `auth` on (issue 49, SPEC G27; docs/gateway.md "Skills"): a real JWKS on loopback,
 * RS256 tokens, and two operator folders, one open and one whose skills need `skills:guarded`. A caller
 * without that scope neither lists, gets, reads, nor browses the guarded skill: to it, it does not exist.
 */
const AUDIENCE = 'https://gateway.test.invalid/mcp';

function skillFolder(name: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'skills-auth-'));
  mkdirSync(path.join(root, name, 'references'), { recursive: true });
  writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody.\n`);
  writeFileSync(path.join(root, name, 'references', 'notes.md'), 'Notes.\n');
  return root;
}

let issuer: TokenIssuer;
let tools: SampleToolService;
let gateway: TestGateway;

beforeAll(async () => {
  issuer = await startTokenIssuer(AUDIENCE);
  tools = await startSampleToolService();
  gateway = await startTestGateway(tools.url, (config) => {
    config.auth = { ...authTrusting(issuer, AUDIENCE), algorithms: ['RS256'], scopesSupported: ['tools', 'skills:guarded'] };
    config.mcp.skills.folders = [
      { path: skillFolder('open-notes') },
      { path: skillFolder('guarded-notes'), requiredScopes: ['skills:guarded'] },
    ];
  });
});
afterAll(async () => {
  await gateway?.stop();
  await tools?.stop();
  await issuer?.close();
});

const bearer = async (scope: string) => ({ authorization: `Bearer ${await issuer.sign({ client_id: 'agent-cli', scope })}` });

describe('skills with auth on', () => {
  it('shows a caller without the scope only the open skill, and refuses it the guarded one everywhere', async () => {
    const narrow = await bearer('tools');
    const listed = (await gateway.rpc('skills/list', {}, narrow)).result?.skills as Array<{ uri: string }>;
    expect(listed.map((skill) => skill.uri)).toEqual(['skill://open-notes/SKILL.md']);
    const resources = (await gateway.rpc('resources/list', {}, narrow)).result?.resources as Array<{ uri: string }>;
    expect(resources.map((resource) => resource.uri)).toEqual(['skill://open-notes/SKILL.md']);
    for (const [method, uri] of [
      ['skills/get', 'skill://guarded-notes/SKILL.md'],
      ['resources/read', 'skill://guarded-notes/SKILL.md'],
      ['resources/read', 'skill://guarded-notes/references/notes.md'],
      ['resources/directory/read', 'skill://guarded-notes'],
    ])
      expect({ method, code: (await gateway.rpc(method, { uri }, narrow)).error?.code }).toEqual({ method, code: -32602 });
  });

  it('shows a caller granted the scope both skills, and reads the guarded one', async () => {
    const wide = await bearer('tools skills:guarded');
    const listed = (await gateway.rpc('skills/list', {}, wide)).result?.skills as Array<{ uri: string }>;
    expect(listed.map((skill) => skill.uri)).toEqual(['skill://open-notes/SKILL.md', 'skill://guarded-notes/SKILL.md']);
    const read = await gateway.rpc('resources/read', { uri: 'skill://guarded-notes/references/notes.md' }, wide);
    expect(read.result?.contents).toEqual([
      { uri: 'skill://guarded-notes/references/notes.md', mimeType: 'text/markdown', text: 'Notes.\n' },
    ]);
  });
});
