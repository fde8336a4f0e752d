import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import type { StdioServerConfig } from '../mcp/server-config';
import { connectedServers } from '../test-support/connected-servers';
import type { Tool } from '../tools/tool';
import { SkillCatalogue } from './skill-catalogue';
import { createSkillTools } from './skill-tools';

const PEER = path.join(REPO_ROOT, 'tools/test/peers/skills-mcp-server.mjs');
const servers = connectedServers('skills-test');

const REFUNDS = `---
name: refunds
description: How to refund an order
metadata:
  version: "1.0"
---
Check the order, then call issue_refund. The policy is in references/POLICY.md.
`;

/** A skills folder with one skill, `refunds`, and its policy file. */
function skillsFolder(skillText = REFUNDS): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'skills-'));
  mkdirSync(path.join(folder, 'refunds', 'references'), { recursive: true });
  writeFileSync(path.join(folder, 'refunds', 'SKILL.md'), skillText);
  writeFileSync(path.join(folder, 'refunds', 'references', 'POLICY.md'), 'Refunds up to 100 need no approval.\n');
  return folder;
}

function peer(name: string, folder: string, record: string, extra: string[] = []): StdioServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [PEER, `--folder=${folder}`, `--record=${record}`, ...extra],
    env: {},
    requestTimeoutMs: 5000,
    annotationTrust: 'ignore',
  };
}

async function skillTools(configs: StdioServerConfig[], folders: string[]) {
  await servers.connect(configs);
  if (!servers.manager) throw new Error('no client manager after connect');
  const catalogue = await SkillCatalogue.create(servers.manager, folders);
  const [load, read] = createSkillTools({ workingDirectory: process.cwd() }, catalogue);
  return { catalogue, load, read };
}

const text = async (tool: Tool, args: Record<string, unknown>) => {
  const result = await tool.execute(args);
  return { isError: result.isError, text: result.content.map((c) => ('text' in c ? c.text : '')).join('') };
};

const requests = (record: string) => readFileSync(record, 'utf8').trim().split('\n');

describe('skill tools over a real skills server and a local folder', () => {
  it('offers names and descriptions by origin, reads nothing before LoadSkill, then loads and reads only listed files', async () => {
    const folder = skillsFolder();
    const record = path.join(folder, 'requests.log');
    const { catalogue, load, read } = await skillTools([peer('billing', folder, record)], [folder]);

    // The same skill from the server and from the folder: both offered, neither hiding the other.
    expect(catalogue.skills.map((s) => [s.name, s.origin, s.uri])).toEqual([
      ['refunds', 'mcp:billing', 'skill://refunds/SKILL.md'],
      ['refunds', `folder:${folder}`, expect.stringMatching(/^file:.*\/refunds\/SKILL\.md$/)],
    ]);
    expect(load.description).toContain('- refunds [mcp:billing]: How to refund an order');
    expect(load.description).not.toContain('issue_refund');
    expect(requests(record)).not.toContainEqual(expect.stringMatching(/^resources\/read/));

    expect(await text(load, { name: 'refunds' })).toEqual({
      isError: true,
      text: expect.stringContaining(`give origin, one of mcp:billing, folder:${folder}`),
    });
    expect(await text(read, { name: 'refunds', origin: 'mcp:billing', path: 'references/POLICY.md' })).toMatchObject({
      isError: true,
      text: expect.stringContaining('load skill "refunds" with LoadSkill first'),
    });

    const loaded = await text(load, { name: 'refunds', origin: 'mcp:billing' });
    expect(loaded.isError).toBe(false);
    expect(loaded.text).toContain('Check the order, then call issue_refund.');
    expect(loaded.text).not.toContain('description:');
    expect(loaded.text).toContain('Files of this skill (read one with ReadSkillFile): references/POLICY.md');
    expect(await text(read, { name: 'refunds', origin: 'mcp:billing', path: 'references/POLICY.md' })).toEqual({
      isError: false,
      text: 'Refunds up to 100 need no approval.\n',
    });
    expect(await text(read, { name: 'refunds', origin: 'mcp:billing', path: 'skill://other/SKILL.md' })).toMatchObject({
      isError: true,
      text: expect.stringContaining('is not a file of skill "refunds" of MCP server "billing"; its files: references/POLICY.md'),
    });
    expect(requests(record).filter((line) => line.startsWith('resources/read'))).toEqual([
      'resources/read skill://refunds/SKILL.md',
      'resources/read skill://refunds/references/POLICY.md',
    ]);

    // The local skill: its own files only.
    const local = `folder:${folder}`;
    expect((await text(load, { name: 'refunds', origin: local })).text).toContain('Check the order');
    expect(await text(read, { name: 'refunds', origin: local, path: '../requests.log' })).toMatchObject({
      isError: true,
      text: expect.stringContaining('../requests.log is not a file in the folder of skill "refunds"'),
    });
  });

  it('refuses a skill whose SKILL.md is not what the server listed, naming the skill, the server and what differs', async () => {
    const folder = skillsFolder();
    const record = path.join(folder, 'requests.log');
    const { load, read } = await skillTools([peer('billing', folder, record, ['--tamper=refunds/SKILL.md'])], []);

    const refused = await text(load, { name: 'refunds' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(
      /skill "refunds" of MCP server "billing" refused: size \d+ bytes, listed \d+; digest sha256:[0-9a-f]{64}, listed sha256:/,
    );
    expect(refused.text).not.toContain('evil.example');
    expect(await text(read, { name: 'refunds', path: 'references/POLICY.md' })).toMatchObject({
      isError: true,
      text: expect.stringContaining('refused'),
    });
    expect(requests(record)).not.toContain('resources/read skill://refunds/references/POLICY.md');
  });

  it('refuses the whole skill when a file it refers to was tampered with', async () => {
    const folder = skillsFolder();
    const { load, read } = await skillTools(
      [peer('billing', folder, path.join(folder, 'r.log'), ['--tamper=refunds/references/POLICY.md'])],
      [],
    );

    expect((await text(load, { name: 'refunds' })).isError).toBe(false);
    expect(await text(read, { name: 'refunds', path: 'references/POLICY.md' })).toMatchObject({
      isError: true,
      text: expect.stringContaining('skill "refunds" of MCP server "billing" refused: references/POLICY.md: size'),
    });
    expect((await text(load, { name: 'refunds' })).isError).toBe(true);
  });
});
