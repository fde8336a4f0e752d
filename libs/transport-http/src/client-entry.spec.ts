import path from 'node:path';

import { buildSync } from 'esbuild';

const ROOT = path.join(__dirname, '../../..');
const SERVER_ONLY = ['express', 'winston', 'winston-transport'];

/**
 * An entry's module graph, bundled as the agent CLI is (npm packages left to `require` at run time): the
 * workspace files it takes in and the packages it would require.
 */
function moduleGraph(entry: string): { files: string[]; packages: string[] } {
  const { metafile } = buildSync({
    entryPoints: [path.join(__dirname, entry)],
    absWorkingDir: ROOT,
    tsconfig: path.join(ROOT, 'tsconfig.base.json'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const imports = Object.values(metafile.inputs).flatMap((input) => input.imports);
  return { files: Object.keys(metafile.inputs), packages: [...new Set(imports.filter((i) => i.external).map((i) => i.path))] };
}

describe('the entry points of transport-http', () => {
  it('client: requires neither express nor winston, and takes in no server or logging module', () => {
    const { files, packages } = moduleGraph('client.ts');
    expect(packages).toContain('undici'); // the graph was read through, protocol included
    expect(files).toContain('libs/protocol/src/index.ts');
    expect(packages.filter((p) => SERVER_ONLY.includes(p))).toEqual([]);
    expect(files.filter((f) => /^libs\/transport-http\/src\/lib\/(server|logging)\//.test(f))).toEqual([]);
  });

  it('server: does require them, so the check above can see them', () => {
    expect(moduleGraph('server.ts').packages).toEqual(expect.arrayContaining(SERVER_ONLY));
  });
});
