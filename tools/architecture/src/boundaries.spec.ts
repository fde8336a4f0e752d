import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The layering of docs/architecture.md, proven rule by rule: each forbidden import must fail lint with the
 * rule's own message, and each allowed one must pass. The snippets are linted in memory as if they lived
 * at the given path; nothing is written into the libraries.
 */
const ROOT = path.join(__dirname, '../../..');

interface Snippet {
  filePath: string;
  code: string;
}
interface LintResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; message: string }>;
}

const importingAt = (filePath: string, specifier: string): Snippet => ({
  filePath,
  code: `import * as imported from '${specifier}';\nexport const used = imported;\n`,
});
const importing = (from: string, specifier: string): Snippet => importingAt(`${from}/src/boundary-fixture.ts`, specifier);

const forbidden: Array<[string, Snippet, RegExp]> = [
  // libraries never import apps
  [
    'a library imports an app',
    importing('libs/registry', '../../../apps/gateway/src/main'),
    /cannot be imported by a relative or absolute path|Imports of apps are forbidden/,
  ],
  [
    'the MCP client library imports an app',
    importing('libs/mcp-client', '../../../apps/agent-cli/src/main'),
    /cannot be imported by a relative or absolute path|Imports of apps are forbidden/,
  ],
  // a library imports only libraries below it
  [
    'transport-stdio imports registry (transport → domain)',
    importing('libs/transport-stdio', '@toolmesh/registry'),
    /"type:transport" can only depend on libs tagged with "type:protocol"/,
  ],
  [
    'transport-http imports rewake-bridge (transport → bridge)',
    importing('libs/transport-http', '@toolmesh/rewake-bridge'),
    /"type:transport" can only depend on libs tagged with "type:protocol"/,
  ],
  [
    'registry imports transport-http (domain → transport)',
    importing('libs/registry', '@toolmesh/transport-http/server'),
    /"type:domain" can only depend on libs tagged with "type:protocol"/,
  ],
  [
    'rewake-bridge imports transport-stdio (bridge → transport)',
    importing('libs/rewake-bridge', '@toolmesh/transport-stdio'),
    /"type:bridge" can only depend on libs tagged with "type:protocol"/,
  ],
  // Every library imports protocol, so the cycle check may report first; either way lint fails.
  [
    'protocol imports transport-http (protocol → anything)',
    importing('libs/protocol', '@toolmesh/transport-http/client'),
    /"type:protocol" cannot depend on any libs|Circular dependency between "protocol" and "transport-http"/,
  ],
  // the MCP client sits above the transports (ADR 0018); mcp-client imports protocol and transport-http, so a cycle may report first
  [
    'protocol imports mcp-client (protocol → client)',
    importing('libs/protocol', '@toolmesh/mcp-client'),
    /"type:protocol" cannot depend on any libs|Circular dependency between "protocol" and "mcp-client"/,
  ],
  [
    'transport-http imports mcp-client (transport → client)',
    importing('libs/transport-http', '@toolmesh/mcp-client'),
    /"type:transport" can only depend on libs tagged with "type:protocol"|Circular dependency between "transport-http" and "mcp-client"/,
  ],
  [
    'transport-stdio imports mcp-client (transport → client)',
    importing('libs/transport-stdio', '@toolmesh/mcp-client'),
    /"type:transport" can only depend on libs tagged with "type:protocol"/,
  ],
  [
    'registry imports mcp-client (domain → client)',
    importing('libs/registry', '@toolmesh/mcp-client'),
    /"type:domain" can only depend on libs tagged with "type:protocol"/,
  ],
  [
    'mcp-client imports registry (client → domain)',
    importing('libs/mcp-client', '@toolmesh/registry'),
    /"type:client" can only depend on libs tagged with "type:transport", "type:protocol"/,
  ],
  // each deployable uses only its own scope and shared libraries
  [
    'the gateway imports transport-stdio (agent scope)',
    importing('apps/gateway', '@toolmesh/transport-stdio'),
    /"scope:gateway" can only depend on libs tagged with "scope:gateway", "scope:shared"/,
  ],
  [
    'the agent CLI imports registry (gateway scope)',
    importing('apps/agent-cli', '@toolmesh/registry'),
    /"scope:agent" can only depend on libs tagged with "scope:agent", "scope:shared"/,
  ],
  // express only in transport-http
  ...[
    'libs/protocol',
    'libs/mcp-client',
    'libs/transport-stdio',
    'libs/registry',
    'libs/rewake-bridge',
    'apps/gateway',
    'apps/agent-cli',
    'apps/tool-service-sample',
  ].map((from): [string, Snippet, RegExp] => [`${from} imports express`, importing(from, 'express'), /is not allowed to import "express"/]),
  // ioredis only in registry
  ...[
    'libs/protocol',
    'libs/mcp-client',
    'libs/transport-stdio',
    'libs/transport-http',
    'libs/rewake-bridge',
    'apps/gateway',
    'apps/agent-cli',
  ].map((from): [string, Snippet, RegExp] => [`${from} imports ioredis`, importing(from, 'ioredis'), /is not allowed to import "ioredis"/]),
  // protocol does no I/O
  ['protocol imports node:child_process', importing('libs/protocol', 'node:child_process'), /libs\/protocol does no I\/O/],
  ['protocol imports node:http', importing('libs/protocol', 'node:http'), /libs\/protocol does no I\/O/],
  // a library's entry file names its exports
  [
    'a library entry file re-exports a whole module',
    { filePath: 'libs/registry/src/index.ts', code: "export * from './lib/errors';\n" },
    /no `export \*`/,
  ],
  // an app reaches an MCP server only through the MCP client library (ADR 0018)
  [
    "the gateway's product code imports the MCP SDK's client",
    importing('apps/gateway', '@modelcontextprotocol/client'),
    /only through @toolmesh\/mcp-client/,
  ],
  [
    "the agent CLI's product code imports the MCP SDK v1",
    importingAt('apps/agent-cli/src/mcp/boundary-fixture.ts', '@modelcontextprotocol/sdk/client/index.js'),
    /only through @toolmesh\/mcp-client/,
  ],
  // product code never imports test code (ADR 0011)
  [
    'gateway product code imports a tools/test helper',
    importing('apps/gateway', '../../../tools/test/free-port'),
    /Product code never imports test code/,
  ],
  [
    'agent CLI product code imports its test-support',
    importingAt('apps/agent-cli/src/cli/boundary-fixture.ts', '../test-support/built-cli'),
    /Product code never imports test code/,
  ],
  [
    'library product code imports a spec',
    importingAt('libs/registry/src/lib/boundary-fixture.ts', './errors.spec'),
    /Product code never imports test code/,
  ],
  [
    'library product code imports a tools/test helper',
    importing('libs/protocol', '../../../tools/test/seeded-random'),
    /Product code never imports test code/,
  ],
  [
    'gateway product code imports a tools/test helper by its alias',
    importing('apps/gateway', '@toolmesh/test-peers/free-port'),
    /Product code never imports test code/,
  ],
  [
    'library product code imports a tools/test helper by its alias',
    importing('libs/protocol', '@toolmesh/test-peers/seeded-random'),
    /Product code never imports test code/,
  ],
  // test code imports the shared helpers by their alias, never by a relative path (ADR 0011)
  [
    'a gateway spec imports a tools/test helper by a relative path',
    importingAt('apps/gateway/src/boundary-fixture.spec.ts', '../../../tools/test/free-port'),
    /by their alias, @toolmesh\/test-peers/,
  ],
  [
    "an app's test-support imports a tools/test peer by a relative path",
    importingAt('apps/agent-cli/src/test-support/boundary-fixture.ts', '../../../../tools/test/peers/http-peer'),
    /by their alias, @toolmesh\/test-peers/,
  ],
  [
    'a benchmark imports a tools/test helper by a relative path',
    importingAt('tools/bench/reconnect/boundary-fixture.ts', '../../test/process-table'),
    /by their alias, @toolmesh\/test-peers/,
  ],
  // benchmarks reach an app only through its bench seam (ADR 0017)
  [
    'a benchmark imports the agent CLI past its bench seam',
    importingAt('tools/bench/reconnect/boundary-fixture.ts', '../../../apps/agent-cli/src/mcp/client-manager'),
    /cannot be imported by a relative or absolute path|Imports of apps are forbidden/,
  ],
  // a library never imports tools/
  [
    'library product code imports tools/ (not test code)',
    importing('libs/registry', '../../../tools/conformance/run-conformance'),
    /A library never imports tools\//,
  ],
  // the agent CLI's floors
  [
    'agent CLI config imports agent/hooks (the old cycle)',
    importingAt('apps/agent-cli/src/config/boundary-fixture.ts', '../agent/hooks/hook-template'),
    /apps\/agent-cli\/src\/config lies below agent, runtime, cli/,
  ],
  [
    'agent CLI agent/hooks imports runtime',
    importingAt('apps/agent-cli/src/agent/hooks/boundary-fixture.ts', '../../runtime/runtime-factory'),
    /apps\/agent-cli\/src\/agent lies below runtime, cli/,
  ],
  [
    'agent CLI tools imports mcp',
    importingAt('apps/agent-cli/src/tools/builtin/boundary-fixture.ts', '../../mcp/client-manager'),
    /apps\/agent-cli\/src\/tools lies below mcp, config, skills, agent, runtime, cli/,
  ],
  [
    'agent CLI mcp test support imports runtime',
    importingAt('apps/agent-cli/src/mcp/test-support/boundary-fixture.ts', '../../runtime/runtime-factory'),
    /apps\/agent-cli\/src\/mcp lies below config, skills, agent, runtime, cli/,
  ],
  // the registry's floors
  [
    'registry model imports manifest',
    importingAt('libs/registry/src/lib/model/boundary-fixture.ts', '../manifest/validate-manifest'),
    /libs\/registry\/src\/lib\/model lies below sources, manifest, openapi, mcp-server, cache, changes, hints, portal, status, catalogue/,
  ],
  [
    'registry cache imports catalogue (the old stored-route)',
    importingAt('libs/registry/src/lib/cache/boundary-fixture.ts', '../catalogue/build-route-snapshot'),
    /libs\/registry\/src\/lib\/cache lies below portal, status, catalogue and beside sources, manifest, openapi, mcp-server, changes, hints/,
  ],
  [
    'registry manifest imports its neighbour cache',
    importingAt('libs/registry/src/lib/manifest/boundary-fixture.ts', '../cache/snapshot-cache'),
    /libs\/registry\/src\/lib\/manifest lies below portal, status, catalogue and beside sources, openapi, mcp-server, cache, changes, hints/,
  ],
  [
    'registry openapi imports its neighbour manifest (the catalogue joins them)',
    importingAt('libs/registry/src/lib/openapi/boundary-fixture.ts', '../manifest/validate-manifest'),
    /libs\/registry\/src\/lib\/openapi lies below portal, status, catalogue and beside sources, manifest, mcp-server, cache, changes, hints/,
  ],
  [
    'registry mcp-server imports its neighbour manifest (the catalogue joins them)',
    importingAt('libs/registry/src/lib/mcp-server/boundary-fixture.ts', '../manifest/validate-manifest'),
    /libs\/registry\/src\/lib\/mcp-server lies below portal, status, catalogue and beside sources, manifest, openapi, cache, changes, hints/,
  ],
  [
    'registry status imports catalogue',
    importingAt('libs/registry/src/lib/status/boundary-fixture.ts', '../catalogue/live-catalogue'),
    /libs\/registry\/src\/lib\/status lies below catalogue/,
  ],
  // the gateway's floors
  [
    'gateway upstreams imports execution (the old input-required import)',
    importingAt('apps/gateway/src/upstreams/boundary-fixture.ts', '../execution/tool-execution-service'),
    /apps\/gateway\/src\/upstreams lies below execution, skills, mcp, endpoints, app, lint/,
  ],
  [
    'gateway call imports auth',
    importingAt('apps/gateway/src/call/boundary-fixture.ts', '../auth/verified-tokens'),
    /apps\/gateway\/src\/call lies below tool-client, tracing, management, auth, audit, definitions, .*task-state, limits, .*execution, skills, mcp, endpoints, app, lint/,
  ],
  [
    'gateway auth imports its neighbour tracing',
    importingAt('apps/gateway/src/auth/boundary-fixture.ts', '../tracing/tracing'),
    /apps\/gateway\/src\/auth lies below limits, interceptors, .*upstreams, execution, skills, mcp, endpoints, app, lint and beside tool-client, tracing, management, audit, definitions, .*task-state/,
  ],
  [
    'gateway task-state imports execution (the tasks folder before its split, issue 47)',
    importingAt('apps/gateway/src/task-state/boundary-fixture.ts', '../execution/tasks/task-service'),
    /apps\/gateway\/src\/task-state lies below limits, interceptors, .*upstreams, execution, skills, mcp, endpoints, app, lint and beside tool-client, tracing, management, auth, audit, definitions/,
  ],
  [
    'gateway call imports task-state (a task record lies in call/ itself)',
    importingAt('apps/gateway/src/call/boundary-fixture.ts', '../task-state/task-store'),
    /apps\/gateway\/src\/call lies below .*task-state/,
  ],
  [
    'gateway mcp/era-2026/handlers imports app',
    importingAt('apps/gateway/src/mcp/era-2026/handlers/boundary-fixture.ts', '../../../app/start-gateway'),
    /apps\/gateway\/src\/mcp lies below endpoints, app, lint/,
  ],
  [
    'gateway execution test support imports mcp',
    importingAt('apps/gateway/src/execution/test-support/boundary-fixture.ts', '../../mcp/handlers/tools-call'),
    /apps\/gateway\/src\/execution lies below mcp, endpoints, app, lint and beside skills/,
  ],
  // one JSON Schema validator (SPEC N5, ADR 0012): ajv and re2js only in libs/protocol/src/lib/schema
  ...[
    ['the gateway', 'apps/gateway/src/boundary-fixture.ts', 'ajv/dist/2020'],
    ['an agent CLI spec', 'apps/agent-cli/src/tools/boundary-fixture.spec.ts', 'ajv'],
    ['registry', 'libs/registry/src/lib/boundary-fixture.ts', 'ajv'],
    ['protocol outside its schema folder', 'libs/protocol/src/lib/jsonrpc/boundary-fixture.ts', 're2js'],
    ['a tools/test helper', 'tools/test/boundary-fixture.ts', 'ajv'],
  ].map(([who, at, specifier]): [string, Snippet, RegExp] => [
    `${who} imports ${specifier}`,
    importingAt(at, specifier),
    /JSON Schema validation lives in libs\/protocol/,
  ]),
];

const allowed: Array<[string, Snippet]> = [
  ['transport-http imports express', importing('libs/transport-http', 'express')],
  ['registry imports ioredis', importing('libs/registry', 'ioredis')],
  ['registry imports protocol', importing('libs/registry', '@toolmesh/protocol')],
  ['rewake-bridge imports protocol', importing('libs/rewake-bridge', '@toolmesh/protocol')],
  ['the gateway imports transport-http/server', importing('apps/gateway', '@toolmesh/transport-http/server')],
  ['the gateway imports registry', importing('apps/gateway', '@toolmesh/registry')],
  ['the agent CLI imports transport-stdio', importing('apps/agent-cli', '@toolmesh/transport-stdio')],
  ['the agent CLI imports transport-http/client', importing('apps/agent-cli', '@toolmesh/transport-http/client')],
  ['the agent CLI imports rewake-bridge', importing('apps/agent-cli', '@toolmesh/rewake-bridge')],
  ['the agent CLI imports mcp-client', importing('apps/agent-cli', '@toolmesh/mcp-client')],
  ['the gateway imports mcp-client', importing('apps/gateway', '@toolmesh/mcp-client')],
  ['mcp-client imports transport-http/client', importing('libs/mcp-client', '@toolmesh/transport-http/client')],
  ['mcp-client imports protocol', importing('libs/mcp-client', '@toolmesh/protocol')],
  // test code may import test code
  [
    'a gateway spec imports a tools/test helper',
    importingAt('apps/gateway/src/boundary-fixture.spec.ts', '@toolmesh/test-peers/free-port'),
  ],
  [
    'a library spec imports a tools/test helper',
    importingAt('libs/registry/src/lib/boundary-fixture.spec.ts', '@toolmesh/test-peers/document-server'),
  ],
  [
    "an app's test-support imports a tools/test helper",
    importingAt('apps/agent-cli/src/test-support/boundary-fixture.ts', '@toolmesh/test-peers/server-process'),
  ],
  ['a tools/test helper imports its neighbour', importingAt('tools/test/boundary-fixture.ts', './free-port')],
  // the MCP SDK in an app: the agent's OAuth (no MCP session), a server, and test code's peers
  [
    "the agent CLI's OAuth imports the MCP SDK's client",
    importingAt('apps/agent-cli/src/mcp/oauth/boundary-fixture.ts', '@modelcontextprotocol/client'),
  ],
  [
    "the agent CLI's serve command imports the MCP SDK's server",
    importingAt('apps/agent-cli/src/cli/commands/boundary-fixture.ts', '@modelcontextprotocol/server'),
  ],
  [
    'a gateway spec imports the MCP SDK v1 as a peer',
    importingAt('apps/gateway/src/boundary-fixture.spec.ts', '@modelcontextprotocol/sdk/client/index.js'),
  ],
  // benchmarks: the bench seam, library faces and the shared test helpers
  [
    "a benchmark imports the agent CLI's bench seam",
    importingAt('tools/bench/reconnect/boundary-fixture.ts', '../../../apps/agent-cli/src/bench-seam'),
  ],
  [
    'a benchmark imports transport-http/client',
    importingAt('tools/bench/reconnect/boundary-fixture.ts', '@toolmesh/transport-http/client'),
  ],
  [
    'a benchmark imports a tools/test helper',
    importingAt('tools/bench/reconnect/boundary-fixture.ts', '@toolmesh/test-peers/process-table'),
  ],
  [
    "a benchmark's Node script imports a tools/test peer's module by path",
    importingAt('tools/bench/gateway-federation/boundary-fixture.mjs', '../../test/peers/bare-mcp-http.mjs'),
  ],
  // the agent CLI's floors, upwards only in specs
  ['agent CLI agent/hooks imports config', importingAt('apps/agent-cli/src/agent/hooks/boundary-fixture.ts', '../../config/skill')],
  ['agent CLI config imports mcp', importingAt('apps/agent-cli/src/config/boundary-fixture.ts', '../mcp/server-config')],
  [
    'an agent CLI agent/hooks spec imports runtime',
    importingAt('apps/agent-cli/src/agent/hooks/boundary-fixture.spec.ts', '../../runtime/runtime-factory'),
  ],
  [
    'agent CLI runtime test support imports agent',
    importingAt('apps/agent-cli/src/runtime/test-support/boundary-fixture.ts', '../../agent/loop/agent-loop'),
  ],
  // the registry's floors: downward, and upward only in specs
  [
    'registry portal imports cache and sources (the floor below)',
    {
      filePath: 'libs/registry/src/lib/portal/boundary-fixture.ts',
      code: "import * as cache from '../cache/snapshot-cache';\nimport * as sources from '../sources/http-json-source';\nexport const used = [cache, sources];\n",
    },
  ],
  [
    'registry catalogue imports status and model',
    {
      filePath: 'libs/registry/src/lib/catalogue/boundary-fixture.ts',
      code: "import * as status from '../status/bundle-status';\nimport * as model from '../model/route';\nexport const used = [status, model];\n",
    },
  ],
  [
    'a registry portal spec imports catalogue',
    importingAt('libs/registry/src/lib/portal/boundary-fixture.spec.ts', '../catalogue/live-catalogue'),
  ],
  // the gateway's floors: downward, and upward only in specs
  [
    'gateway execution imports upstreams, limits, call and tool-client (floors below)',
    {
      filePath: 'apps/gateway/src/execution/boundary-fixture.ts',
      code:
        "import * as upstreams from '../upstreams/mcp-upstreams';\nimport * as limits from '../limits/call-rate-limits';\n" +
        "import * as call from '../call/input-required';\nimport * as toolClient from '../tool-client/tool-client';\n" +
        'export const used = [upstreams, limits, call, toolClient];\n',
    },
  ],
  [
    'gateway mcp/handlers imports execution',
    importingAt('apps/gateway/src/mcp/handlers/boundary-fixture.ts', '../../execution/result-mapper'),
  ],
  ['gateway lint imports app', importingAt('apps/gateway/src/lint/boundary-fixture.ts', '../app/start-gateway')],
  ['a gateway upstreams spec imports app', importingAt('apps/gateway/src/upstreams/boundary-fixture.spec.ts', '../app/start-gateway')],
  [
    'the schema validator imports ajv and re2js',
    {
      filePath: 'libs/protocol/src/lib/schema/boundary-fixture.ts',
      code: "import Ajv from 'ajv';\nimport { RE2JS } from 're2js';\nexport const used = [Ajv, RE2JS];\n",
    },
  ],
];

function lint(snippets: Snippet[]): Map<string, LintResult['messages']> {
  const output = execFileSync(process.execPath, [path.join(__dirname, 'lint-snippets.mjs')], {
    cwd: ROOT,
    input: JSON.stringify(snippets),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const results = JSON.parse(output) as LintResult[];
  return new Map(results.map((r, i) => [String(i), r.messages]));
}

describe('module boundaries', () => {
  let forbiddenMessages: Map<string, LintResult['messages']>;
  let allowedMessages: Map<string, LintResult['messages']>;

  beforeAll(() => {
    // The Nx rule silently skips itself when no project graph is cached; computing the graph first
    // makes "no error" mean "allowed", never "not checked".
    execFileSync('npx', ['nx', 'show', 'projects'], { cwd: ROOT, stdio: 'ignore' });
    forbiddenMessages = lint(forbidden.map(([, snippet]) => snippet));
    allowedMessages = lint(allowed.map(([, snippet]) => snippet));
  });

  it.each(forbidden.map(([name, , expected], i) => [name, i, expected] as const))('fails lint when %s', (_, i, expected) => {
    const messages = forbiddenMessages.get(String(i)) ?? [];
    const boundaryErrors = messages.filter(
      (m) =>
        ['@nx/enforce-module-boundaries', 'no-restricted-imports', 'no-restricted-syntax'].includes(m.ruleId ?? '') ||
        m.ruleId?.startsWith('toolmesh/'),
    );
    expect(boundaryErrors.map((m) => m.message)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });

  it.each(allowed.map(([name], i) => [name, i] as const))('passes lint when %s', (_, i) => {
    expect(allowedMessages.get(String(i))).toEqual([]);
  });
});
