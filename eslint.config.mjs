import nx from '@nx/eslint-plugin';

/**
 * Layering, as docs/architecture.md draws it. Two tag dimensions on every project:
 *   type:  app → (transport | domain | bridge) → protocol       (what a project is)
 *   scope: gateway | agent | shared                              (which deployable it serves)
 * tools/architecture/src/boundaries.spec.ts lints one forbidden import per rule and expects an error,
 * so these rules cannot quietly turn into "anything goes".
 */
const layerRules = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:transport', 'type:domain', 'type:bridge', 'type:protocol'] },
  { sourceTag: 'type:transport', onlyDependOnLibsWithTags: ['type:protocol'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:protocol'] },
  { sourceTag: 'type:bridge', onlyDependOnLibsWithTags: ['type:protocol'] },
  { sourceTag: 'type:protocol', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: [] },
];

const scopeRules = [
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
  { sourceTag: 'scope:agent', onlyDependOnLibsWithTags: ['scope:agent', 'scope:shared'] },
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
];

// Only transport-http (type:transport + scope:shared) may import express; only registry (type:domain) may
// import ioredis. Each ban names the tags of every other project, so a new project inherits a ban through its tags.
const externalImportRules = [
  { sourceTag: 'type:protocol', bannedExternalImports: ['express', 'ioredis', 'got', 'undici', 'winston'] },
  { sourceTag: 'type:app', bannedExternalImports: ['express', 'ioredis'] },
  { sourceTag: 'type:bridge', bannedExternalImports: ['express', 'ioredis'] },
  { sourceTag: 'type:domain', bannedExternalImports: ['express'] },
  { sourceTag: 'type:transport', bannedExternalImports: ['ioredis'] },
  { sourceTag: 'scope:agent', bannedExternalImports: ['express'] },
];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/coverage', '**/node_modules', 'tmp/**', '.nx/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          banTransitiveDependencies: true,
          // The root package.json gives the version the apps report; docs/schemas holds the JSON Schemas
          // that both document a format and validate it, so the two cannot drift apart; specs of several
          // projects share the test helpers in tools/test (process table, test peers).
          allow: [
            '^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$',
            '^(\\.\\./)+package\\.json$',
            '^(\\.\\./)+docs/schemas/[\\w.-]+\\.schema\\.json$',
            '^(\\.\\./)+tools/test/',
          ],
          depConstraints: [...layerRules, ...scopeRules, ...externalImportRules],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The protocol library knows no transport, no HTTP framework and no process (SPEC "Layers and boundaries").
    files: ['libs/protocol/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['child_process', 'node:child_process', 'http', 'node:http', 'https', 'node:https', 'net', 'node:net'].map(
            (name) => ({ name, message: 'libs/protocol does no I/O: transports live in transport-stdio / transport-http.' }),
          ),
        },
      ],
    },
  },
  {
    // A library's face names what it exports (docs/architecture.md "Library faces"): `export *` would hand
    // every internal module to its importers.
    files: ['libs/*/src/index.ts', 'libs/*/src/server.ts', 'libs/*/src/client.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'A library entry file names its exports: no `export *`.' }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
