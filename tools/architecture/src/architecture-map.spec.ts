import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { unnamedFolders } from './named-folders';

/**
 * docs/architecture.md is the map of the house: every folder of every app and library (each folder under
 * `apps/<app>/src` and `libs/<library>/src`, at any depth) is named there, so a folder added without a word on
 * the map fails here by its path (issue #42). How a page names a folder: tools/architecture/src/named-folders.ts.
 */
const ROOT = path.resolve(__dirname, '../../..');
const MAP = 'docs/architecture.md';

/** The folders under `dir` (relative to the root) that hold a file; git keeps no empty folder, nor does the map. */
function foldersUnder(dir: string): string[] {
  const entries = readdirSync(path.join(ROOT, dir), { withFileTypes: true }).filter((entry) => !entry.name.startsWith('.'));
  return entries
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const folder = `${dir}/${entry.name}`;
      const below = foldersUnder(folder);
      const holdsFile = below.length > 0 || readdirSync(path.join(ROOT, folder), { withFileTypes: true }).some((child) => child.isFile());
      return holdsFile ? [folder, ...below] : below;
    });
}

const sourceFolders = () =>
  ['apps', 'libs'].flatMap((group) =>
    readdirSync(path.join(ROOT, group), { withFileTypes: true })
      .filter((project) => project.isDirectory() && readdirSync(path.join(ROOT, group, project.name)).includes('src'))
      .flatMap((project) => foldersUnder(`${group}/${project.name}/src`)),
  );

describe('the architecture map', () => {
  it(`names every folder under apps/*/src and libs/*/src in ${MAP}`, () => {
    const folders = sourceFolders();
    expect(folders).toContain('apps/gateway/src/call');
    expect(unnamedFolders(readFileSync(path.join(ROOT, MAP), 'utf8'), folders)).toEqual([]);
  });

  it('takes a folder as named by its whole path, or by its path below a folder its own section names whole', () => {
    const folders = ['apps/a/src/x', 'apps/a/src/x/y', 'apps/a/src/z', 'apps/b/src/x', 'apps/b/src/w'];
    const page = [
      '## A',
      'The folders of `apps/a/src`: `x/` and `x/y`.',
      '## B',
      '`apps/b/src/x/`; `z/` and `w` are not folders of a project this section names.',
      '```',
      '`apps/a/src/z/` in a fence',
      '```',
    ].join('\n');
    expect(unnamedFolders(page, folders)).toEqual(['apps/a/src/z', 'apps/b/src/w']);
  });
});
