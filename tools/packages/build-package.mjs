#!/usr/bin/env node
/**
 * Builds an installable npm package of one app into dist/packages/<app>/ (docs/adr/0020-installable-packages.md):
 * one self-contained bundle, the app's code and every third-party module it uses, so the package declares no
 * dependencies and installs with nothing fetched. `npm pack` in that folder gives the tarball.
 *
 *   node tools/packages/build-package.mjs agent-cli|gateway [--pack <dir>]
 *
 * With --pack it also runs `npm pack` and prints the tarball's path on stdout.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** What each app's package is; the version is always the root package.json's, the one version of the repository. */
const PACKAGES = {
  'agent-cli': {
    name: '@toolmesh/agent-cli',
    bin: 'toolmesh-agent',
    description: "An agent runtime whose MCP client makes any MCP server's tools feel built in.",
    docs: 'docs/agent-cli.md',
  },
  gateway: {
    name: '@toolmesh/gateway',
    bin: 'toolmesh-gateway',
    description: 'An MCP Streamable HTTP gateway in front of internal REST tool services.',
    docs: 'docs/gateway.md',
  },
};

const { values, positionals } = parseArgs({ allowPositionals: true, options: { pack: { type: 'string' } } });
const app = positionals[0];
const spec = PACKAGES[app];
if (!spec || positionals.length !== 1) {
  process.stderr.write(`usage: build-package.mjs <${Object.keys(PACKAGES).join('|')}> [--pack <dir>]\n`);
  process.exit(2);
}

const outDir = path.join(root, 'dist', 'packages', app);
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

await build({
  entryPoints: [path.join(root, 'apps', app, 'src', 'main.ts')],
  outfile: path.join(outDir, 'main.js'),
  tsconfig: path.join(root, 'apps', app, 'tsconfig.app.json'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  // Third-party license texts go to main.js.LEGAL.txt beside the bundle rather than being lost.
  legalComments: 'linked',
  // The name help and errors call the program when it is not started through its bin (apps/agent-cli/src/program-name.ts).
  define: { TOOLMESH_PACKAGE_BIN: JSON.stringify(spec.bin) },
  logLevel: 'warning',
});

const manifest = {
  name: spec.name,
  version: rootPackage.version,
  description: spec.description,
  license: rootPackage.license,
  engines: rootPackage.engines,
  bin: { [spec.bin]: 'main.js' },
  files: ['main.js', 'main.js.LEGAL.txt', 'README.md'],
};
writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(
  path.join(outDir, 'README.md'),
  `# ${spec.name}\n\n${spec.description}\n\nRun \`${spec.bin} --help\`. Documentation: ${spec.docs} in the toolmesh repository.\n`,
);

if (values.pack !== undefined) {
  mkdirSync(values.pack, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', path.resolve(values.pack)], { cwd: outDir, encoding: 'utf8' }),
  );
  process.stdout.write(`${path.join(path.resolve(values.pack), packed[0].filename)}\n`);
}
