import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { McpTransport } from '@toolmesh/protocol';
import * as z from 'zod';

import { McpClient } from './mcp-client';
import { type SkillEntry, SKILLS_EXTENSION } from './server-features';

const clientInfo = { name: 'mcp-client-test', version: '0.0.0' };
const DIGEST = `sha256:${'a'.repeat(64)}`;

function entry(name: string): SkillEntry {
  const uri = `skill://${name}/SKILL.md`;
  return { uri, frontmatter: { name, description: `does ${name}` }, resources: [{ uri, digest: DIGEST, size: 12 }] };
}

/** A real SDK server that declares the skills extension (or not) and answers its two methods as told. */
async function skillsClient(options: { declare?: boolean; pages?: Record<string, unknown>[]; skills?: Record<string, SkillEntry> }) {
  const { declare = true, pages = [], skills = {} } = options;
  const capabilities = { resources: {}, ...(declare && { extensions: { [SKILLS_EXTENSION]: {} } }) };
  const server = new McpServer({ name: 'skills-server', version: '1.0.0' }, { capabilities });
  const listed: (string | undefined)[] = [];
  server.server.setRequestHandler('skills/list', { params: z.looseObject({ cursor: z.string().optional() }) }, async (params) => {
    listed.push(params.cursor);
    return pages[params.cursor === undefined ? 0 : Number(params.cursor)] as never;
  });
  server.server.setRequestHandler('skills/get', { params: z.looseObject({ uri: z.string() }) }, async (params) => {
    const skill = skills[params.uri];
    if (!skill) throw Object.assign(new Error(`No skill is served at ${params.uri}`), { code: -32602 });
    return { skill } as never;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new McpClient(clientSide as McpTransport, { serverName: 'skills', clientInfo, requestTimeoutMs: 5000 });
  await client.connect();
  return { client, listed };
}

describe('ServerFeatures skills (SEP-2640)', () => {
  it('lists every page of a server that declares the extension, and gets one skill by its uri', async () => {
    const pdf = entry('pdf-processing');
    const { client, listed } = await skillsClient({
      pages: [{ skills: [pdf], nextCursor: '1' }, { skills: [{ ...entry('billing'), resources: 'dynamic' }] }],
      skills: { [pdf.uri]: pdf },
    });
    expect(client.features.offersSkills()).toBe(true);
    const skills = await client.features.listSkills();
    expect(skills.map((s) => [s.uri, s.resources === 'dynamic' ? 'dynamic' : s.resources.length])).toEqual([
      ['skill://pdf-processing/SKILL.md', 1],
      ['skill://billing/SKILL.md', 'dynamic'],
    ]);
    expect(listed).toEqual([undefined, '1']);
    expect(await client.features.getSkill(pdf.uri)).toEqual(pdf);
    await expect(client.features.getSkill('skill://nothing/SKILL.md')).rejects.toThrow('No skill is served at skill://nothing/SKILL.md');
    await client.close();
  });

  it('does not ask a server that did not declare the extension', async () => {
    const { client, listed } = await skillsClient({ declare: false, pages: [{ skills: [entry('x')] }] });
    expect(client.features.offersSkills()).toBe(false);
    expect(await client.features.listSkills()).toEqual([]);
    expect(listed).toEqual([]);
    await client.close();
  });

  it('rejects a malformed listing with an error naming the method and the field, not a crash later', async () => {
    const broken = { ...entry('pdf-processing'), resources: [{ uri: 'skill://pdf-processing/SKILL.md', digest: 'md5:00', size: -1 }] };
    const { client } = await skillsClient({ pages: [{ skills: [broken] }] });
    const failure = client.features.listSkills();
    await expect(failure).rejects.toThrow(/Invalid result for skills\/list/);
    await expect(failure).rejects.toThrow(/digest/);
    await client.close();
  });

  it('abandons a listing whose cursor repeats', async () => {
    const { client } = await skillsClient({
      pages: [
        { skills: [], nextCursor: '1' },
        { skills: [], nextCursor: '1' },
      ],
    });
    await expect(client.features.listSkills()).rejects.toThrow(/cursor repeats/);
    await client.close();
  });
});
