import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';

import { createLogger } from '@toolmesh/transport-http/server';

import { SkillCatalogue } from './skill-catalogue';
import { skillFolderSource } from './skill-folders';

const SKILL_MD = (name: string, extra = '') => `---\nname: ${name}\ndescription: Does ${name} things.\n${extra}---\nBody of ${name}.\n`;

/** A folder of skills on disk: each key a skill folder, each value its files. */
function folderOf(skills: Record<string, Record<string, string>>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'skills-'));
  for (const [folder, files] of Object.entries(skills))
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, folder, file)), { recursive: true });
      writeFileSync(path.join(root, folder, file), text);
    }
  return root;
}

function catalogueOf(folder: string, limits = { maxFilesPerSkill: 3, maxBytesPerSkill: 1_000 }) {
  let logs = '';
  const logger = createLogger({ stream: new Writable({ write: (chunk, _encoding, done) => ((logs += String(chunk)), done()) }) });
  const catalogue = new SkillCatalogue([skillFolderSource({ path: folder }, limits)], { ttlMillis: 60_000, limits, now: Date.now, logger });
  return {
    catalogue,
    logs: () => {
      logger.flush();
      return logs;
    },
  };
}

describe('SkillCatalogue over an operator folder: what it skips, and says why', () => {
  it('serves the good skill and skips each bad one with one log line naming it and why, never its contents', async () => {
    const folder = folderOf({
      good: { 'SKILL.md': SKILL_MD('good'), 'references/a.md': 'A' },
      'no-front-matter': { 'SKILL.md': 'Just a body, secret-body-text.\n' },
      'other-name': { 'SKILL.md': SKILL_MD('a-different-name') },
      'bad-yaml': { 'SKILL.md': '---\nname: bad-yaml\ndescription: [unclosed\n---\n' },
      'too-many-files': { 'SKILL.md': SKILL_MD('too-many-files'), 'a.md': 'a', 'b.md': 'b', 'c.md': 'c' },
      'too-large': { 'SKILL.md': SKILL_MD('too-large'), 'big.txt': 'x'.repeat(1_000) },
      'not-a-skill': { 'README.md': 'no SKILL.md here' },
    });
    const { catalogue, logs } = catalogueOf(folder);
    const skills = await catalogue.visible(undefined);
    expect(skills.map((skill) => skill.skillPath)).toEqual(['good']);
    expect(skills[0].files.map(({ path: file, size, digest }) => ({ file, size, digest }))).toEqual([
      { file: 'SKILL.md', size: Buffer.byteLength(SKILL_MD('good')), digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
      { file: 'references/a.md', size: 1, digest: 'sha256:559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd' },
    ]);
    const lines = logs()
      .split('\n')
      .filter((line) => line.includes('event=skill_skipped'));
    for (const skill of ['no-front-matter', 'other-name', 'bad-yaml', 'too-many-files', 'too-large'])
      expect(lines.filter((line) => line.includes(`skill=${skill} `))).toHaveLength(1);
    expect(logs()).toContain('mcp.skills.maxFilesPerSkill');
    expect(logs()).toContain('mcp.skills.maxBytesPerSkill');
    expect(logs()).toContain('must equal the skill');
    expect(logs()).not.toContain('secret-body-text');
    expect(logs()).not.toContain('not-a-skill');
  });

  it('gives a folder that cannot be read no skills and a skills_source_failed line, and does not throw', async () => {
    const { catalogue, logs } = catalogueOf(path.join(tmpdir(), 'no-such-skills-folder-49'));
    expect(await catalogue.visible(undefined)).toEqual([]);
    expect(logs()).toContain('event=skills_source_failed');
  });

  it('shows a skill whose folder needs scopes only to a caller granted them', async () => {
    const folder = folderOf({ guarded: { 'SKILL.md': SKILL_MD('guarded') } });
    const limits = { maxFilesPerSkill: 3, maxBytesPerSkill: 1_000 };
    const logger = createLogger({ stream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
    const catalogue = new SkillCatalogue([skillFolderSource({ path: folder, requiredScopes: ['skills:read'] }, limits)], {
      ttlMillis: 60_000,
      limits,
      now: Date.now,
      logger,
    });
    const caller = (scopes: string[]) => ({ subject: 's', scopes: new Set(scopes), claims: {}, token: 't' });
    expect(await catalogue.visible(caller([]))).toEqual([]);
    expect(await catalogue.file('skill://guarded/SKILL.md', caller([]))).toBeUndefined();
    expect((await catalogue.visible(caller(['skills:read']))).map((skill) => skill.name)).toEqual(['guarded']);
  });
});
