import nx from '@nx/eslint-plugin';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import prettierConfig from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';

/**
 * Layering, as docs/architecture.md draws it. Two tag dimensions on every project:
 *   type:  app → client → transport → protocol, app → (domain | bridge) → protocol   (what a project is)
 *   scope: gateway | agent | shared                                                  (which deployable it serves)
 * tools/architecture/src/boundaries.spec.ts lints one forbidden import per rule and expects an error,
 * so these rules cannot quietly turn into "anything goes".
 */
const layerRules = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:client', 'type:transport', 'type:domain', 'type:bridge', 'type:protocol'] },
  // The MCP client (ADR 0018) runs over the transports; no transport, and not protocol, may import it.
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:transport', 'type:protocol'] },
  { sourceTag: 'type:transport', onlyDependOnLibsWithTags: ['type:protocol'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:protocol'] },
  { sourceTag: 'type:bridge', onlyDependOnLibsWithTags: ['type:protocol'] },
  { sourceTag: 'type:protocol', onlyDependOnLibsWithTags: [] },
  { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: [] },
  // tools/bench measures libraries through their faces (and an app only through its bench seam)
  { sourceTag: 'type:bench', onlyDependOnLibsWithTags: ['type:client', 'type:transport', 'type:domain', 'type:bridge', 'type:protocol'] },
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
  { sourceTag: 'type:client', bannedExternalImports: ['express', 'ioredis'] },
  { sourceTag: 'type:bridge', bannedExternalImports: ['express', 'ioredis'] },
  { sourceTag: 'type:domain', bannedExternalImports: ['express'] },
  { sourceTag: 'type:transport', bannedExternalImports: ['ioredis'] },
  { sourceTag: 'scope:agent', bannedExternalImports: ['express'] },
];

// Test code (ADR 0011): specs, the shared helpers and peers in tools/test/, and an app's own test-support/
// folders (which its build excludes). Benchmarks start the same peers. Product code is every other file
// under apps/*/src and libs/*/src: the code a build emits.
const TEST_CODE = ['**/*.spec.ts', '**/*.test.ts', '**/test-support/**', 'tools/bench/**'];
const PRODUCT_CODE = ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'];

// Test code imports the shared helpers and peers by the path alias of tsconfig.base.json, never by a relative
// climb into tools/test/: `@toolmesh/test-peers/free-port`.
const TEST_PEERS_ALIAS = '^@toolmesh/test-peers/';

// The one module of an app that benchmarks may import (ADR 0017): every other relative import into apps/
// fails the Nx rule ("Imports of apps are forbidden").
const BENCH_SEAMS = ['^(\\.\\./)+apps/agent-cli/src/bench-seam$'];

// A benchmark that Node runs as a script (.mjs) cannot resolve the test peers' alias, so it imports a peer's
// module by path (the federation benchmark's MCP server shares the bare MCP peers' HTTP side); a TypeScript
// benchmark still uses the alias (toolmesh/test-peers-by-alias).
const BENCH_SCRIPT_PEERS = '^(\\.\\./)+test/peers/[\\w.-]+\\.mjs$';

// The root package.json gives the version the apps report; docs/schemas holds the JSON Schemas that both
// document a format and validate it, so the two cannot drift apart. Any other relative import out of a
// project fails the Nx rule ("External resources cannot be imported using a relative or absolute path").
const ALLOWED_OUTSIDE_PROJECTS = [
  '^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$',
  '^(\\.\\./)+package\\.json$',
  '^(\\.\\./)+docs/schemas/[\\w.-]+\\.schema\\.json$',
];

const moduleBoundaries = (allow) => [
  'error',
  {
    enforceBuildableLibDependency: true,
    banTransitiveDependencies: true,
    allow,
    depConstraints: [...layerRules, ...scopeRules, ...externalImportRules],
  },
];

// The agent CLI's floors, lowest first (docs/architecture.md, "The agent CLI"): a folder's product code and
// test support never import a folder above it. Specs may reach up (a hook's spec starts a whole runtime);
// a helper that needs a higher floor lives in that floor's test-support/.
const AGENT_CLI_FLOORS = ['errors', 'tools', 'mcp', ['config', 'skills'], 'agent', 'runtime', 'cli'];
const SPECS = ['**/*.spec.ts', '**/*.test.ts'];

// The registry's floors, lowest first (docs/architecture.md, "Rules"): the base types in model/, the rooms that
// each do one thing with them (side by side on one floor: they do not import each other), the portal's
// route directory over sources and cache, its status, and catalogue/ on top, orchestrating them all.
const REGISTRY_FLOORS = [
  'model',
  ['sources', 'manifest', 'openapi', 'mcp-server', 'cache', 'changes', 'hints'],
  'portal',
  'status',
  'catalogue',
];

// The gateway's floors, lowest first (docs/architecture.md, "The gateway"): errors and configuration, the call's
// shared types (call/), the ports and services that know one concern each (side by side: they do not import each
// other), the limits over the caller's identity, the MCP servers behind the gateway, the execution of a call, the
// MCP protocol's eras and handlers over it, the composition root, and the lint-source CLI, which starts from it.
const GATEWAY_FLOORS = [
  'errors',
  'config',
  'call',
  ['tool-client', 'tracing', 'management', 'auth', 'audit', 'definitions', 'user-tokens', 'task-state'],
  ['limits', 'interceptors', 'consent'],
  'upstreams',
  ['execution', 'skills'],
  'mcp',
  'endpoints',
  'app',
  'lint',
];

/**
 * One lint block per folder of `root`: its product code and test support import no folder on a floor above
 * its own, nor a neighbour on its own floor. `floors` lists them lowest first; an array is a floor of neighbours.
 */
const floorRules = (rule, root, floors, section) =>
  floors.flatMap((floor, index) => {
    const above = floors.slice(index + 1).flat();
    return [floor].flat().flatMap((folder) => {
      const beside = [floor].flat().filter((other) => other !== folder);
      if (above.length + beside.length === 0) return [];
      const where = [above.length > 0 && `below ${above.join(', ')}`, beside.length > 0 && `beside ${beside.join(', ')}`]
        .filter(Boolean)
        .join(' and ');
      return [
        {
          files: [`${root}/${folder}/**/*.ts`],
          ignores: SPECS,
          rules: {
            [`toolmesh/${rule}`]: [
              'error',
              {
                patterns: [
                  {
                    regex: `^(\\.\\./)+(${[...beside, ...above].join('|')})(/|$)`,
                    message: `${root}/${folder} lies ${where} and imports none of them (${section}).`,
                  },
                ],
              },
            ],
          },
        },
      ];
    });
  });

/**
 * Each concern gets its own copy of the core no-restricted-imports rule, so a file under several concerns
 * (a library's product code is also product code) gets all their bans instead of the last block's.
 * Patterns match the import as written; a relative path is matched by the folder names it climbs into.
 */
const restrictedImports = builtinRules.get('no-restricted-imports');
const toolmesh = {
  rules: {
    'no-test-code-in-product': restrictedImports,
    'no-tools-in-libraries': restrictedImports,
    'test-peers-by-alias': restrictedImports,
    'agent-cli-floors': restrictedImports,
    'registry-floors': restrictedImports,
    'gateway-floors': restrictedImports,
    'one-schema-validator': restrictedImports,
    'one-mcp-session': restrictedImports,
  },
};

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  { ignores: ['**/dist', '**/out-tsc', '**/coverage', '**/node_modules', 'tmp/**', '.nx/**'] },
  { plugins: { toolmesh, 'simple-import-sort': simpleImportSort } },
  {
    // Type-aware rules (ADR 0017): each TypeScript file is typed by the tsconfig of its project, found by the
    // TypeScript project service as an editor finds it. JavaScript files stay untyped: none is product code.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries(ALLOWED_OUTSIDE_PROJECTS),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // One import order everywhere, fixed by `eslint --fix` (ADR 0017): packages, then @toolmesh/*, then relative.
      'simple-import-sort/imports': 'error',
    },
  },
  {
    // Only test code may import the shared test helpers and peers.
    files: TEST_CODE,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries([...ALLOWED_OUTSIDE_PROJECTS, TEST_PEERS_ALIAS]) },
  },
  {
    // Benchmarks sit beside tools/test; they reach an app only through its bench seam.
    files: ['tools/bench/**'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries([
        ...ALLOWED_OUTSIDE_PROJECTS,
        TEST_PEERS_ALIAS,
        BENCH_SCRIPT_PEERS,
        ...BENCH_SEAMS,
      ]),
    },
  },
  {
    files: PRODUCT_CODE,
    ignores: TEST_CODE,
    rules: {
      'toolmesh/no-test-code-in-product': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(tools/test|test-support)(/|$)|^@toolmesh/test-peers(/|$)|\\.(spec|test)(\\.[cm]?[jt]s)?$',
              message:
                'Product code never imports test code (tools/test/ or @toolmesh/test-peers/, test-support/, specs): docs/adr/0011-shared-test-peers-in-tools-test.md.',
            },
          ],
        },
      ],
    },
  },
  {
    // TypeScript resolves the alias (tsc, and Jest through the Nx preset's resolver); tools/test's own files
    // import each other by `./`, and a Node script (none imports a helper today) by path.
    files: ['**/*.ts'],
    ignores: ['tools/test/**'],
    rules: {
      'toolmesh/test-peers-by-alias': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(tools/)?test(/|$)',
              message:
                'Import the shared test helpers by their alias, @toolmesh/test-peers/<file>, not by a relative path into tools/test/ (ADR 0011).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/*/src/**/*.ts'],
    ignores: TEST_CODE,
    rules: {
      'toolmesh/no-tools-in-libraries': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+tools(/|$)',
              message: 'A library never imports tools/: that is repository tooling, which no build ships.',
            },
          ],
        },
      ],
    },
  },
  ...floorRules('agent-cli-floors', 'apps/agent-cli/src', AGENT_CLI_FLOORS, 'docs/architecture.md, "The agent CLI"'),
  ...floorRules('registry-floors', 'libs/registry/src/lib', REGISTRY_FLOORS, 'docs/architecture.md, "Rules"'),
  ...floorRules('gateway-floors', 'apps/gateway/src', GATEWAY_FLOORS, 'docs/architecture.md, "The gateway"'),
  {
    // One JSON Schema validator for the whole product (SPEC N5, ADR 0012): Ajv and its linear-time pattern
    // engine are used by libs/protocol/src/lib/schema only, so no copy can run patterns on V8's backtracking
    // RegExp again. The engine comparison script measures the candidates themselves; the required-work
    // floor, a benchmark baseline, uses none of the product's code.
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    ignores: ['libs/protocol/src/lib/schema/**', 'tools/bench/regexp-engines/**', 'tools/bench/gateway/required-work-floor.mjs'],
    rules: {
      'toolmesh/one-schema-validator': [
        'error',
        {
          patterns: [
            {
              regex: '^(ajv|re2js)(/|$)',
              message: 'JSON Schema validation lives in libs/protocol: use SchemaCompiler from @toolmesh/protocol (ADR 0012).',
            },
          ],
        },
      ],
    },
  },
  {
    // The apps speak MCP to a server only through libs/mcp-client (McpClient, McpSession, ADR 0018): none
    // imports the SDK's client side. The agent's OAuth uses the SDK's OAuth functions (discovery, registration,
    // tokens), no MCP session; the agent's `serve` is a server, whose SDK package is not banned; test code
    // drives real SDK clients as peers.
    files: ['apps/*/src/**/*.ts'],
    ignores: [...TEST_CODE, 'apps/agent-cli/src/mcp/oauth/**'],
    rules: {
      'toolmesh/one-mcp-session': [
        'error',
        {
          patterns: [
            {
              regex: '^@modelcontextprotocol/(client|core|sdk)(/|$)',
              message: 'An app reaches an MCP server only through @toolmesh/mcp-client (McpClient, McpSession; ADR 0018), never the SDK.',
            },
          ],
        },
      ],
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
          paths: ['child_process', 'node:child_process', 'http', 'node:http', 'https', 'node:https', 'net', 'node:net'].map((name) => ({
            name,
            message: 'libs/protocol does no I/O: transports live in transport-stdio / transport-http.',
          })),
        },
      ],
    },
  },
  {
    // A library's face names what it exports (docs/architecture.md "Library faces"): `export *` would hand
    // every internal module to its importers.
    files: ['libs/*/src/index.ts', 'libs/*/src/server.ts', 'libs/*/src/client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'A library entry file names its exports: no `export *`.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Formatting is Prettier's (npm run format); rules that would argue with it are off.
  prettierConfig,
];
