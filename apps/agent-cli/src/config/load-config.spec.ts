import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { AgentErrorCode } from '../errors/agent-errors';
import { DEFAULT_LLM_CONFIG } from './llm-config';
import { loadConfig, parseConfig } from './load-config';

const parse = (text: string, env: NodeJS.ProcessEnv = {}) => parseConfig(text, 'agent-cli.yaml', env).servers;
const failure = (text: string, env: NodeJS.ProcessEnv = {}) => {
  try {
    parse(text, env);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected the configuration to be refused');
};

describe('agent configuration (YAML, mcp.servers)', () => {
  it('reads stdio and Streamable HTTP servers with defaults', () => {
    const servers = parse(
      `
mcp:
  servers:
    - name: files
      command: npx
      args: [-y, "@modelcontextprotocol/server-filesystem", /tmp]
      env: { LOG_LEVEL: debug, RETRIES: 3 }
      cwd: /srv
    - name: remote
      transport: streamable-http
      url: https://mcp.example.com/mcp
      headers: { Authorization: "Bearer \${API_TOKEN}" }
      requestTimeoutMs: 5000
      annotationTrust: trust
      alwaysLoad: true
`,
      { API_TOKEN: 't0k3n' },
    );
    expect(servers).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { LOG_LEVEL: 'debug', RETRIES: '3' },
        cwd: '/srv',
        requestTimeoutMs: 30_000,
        annotationTrust: 'ignore',
      },
      {
        name: 'remote',
        transport: 'streamable-http',
        url: new URL('https://mcp.example.com/mcp'),
        headers: { Authorization: 'Bearer t0k3n' },
        requestTimeoutMs: 5000,
        annotationTrust: 'trust',
        alwaysLoad: true,
      },
    ]);
  });

  it('accepts an empty file and an empty server list', () => {
    expect(parse('')).toEqual([]);
    expect(parse('mcp:\n  servers: []\n')).toEqual([]);
  });

  it.each([
    [
      'a YAML syntax error, with its line',
      'mcp:\n  servers:\n    - name: [a\n',
      AgentErrorCode.ConfigInvalid,
      /not valid YAML or JSON.*at line \d+, column \d+/s,
    ],
    [
      'a misspelt setting',
      'mcp:\n  servers:\n    - name: a\n      comand: x\n',
      AgentErrorCode.ConfigInvalid,
      /mcp\.servers\[0\]\.comand is not a known setting/,
    ],
    [
      'a missing command',
      'mcp:\n  servers:\n    - name: a\n',
      AgentErrorCode.ConfigInvalid,
      /mcp\.servers\[0\]\.command must be a non-empty string/,
    ],
    [
      'a bad URL',
      'mcp:\n  servers:\n    - name: a\n      url: ftp://x\n',
      AgentErrorCode.ConfigInvalid,
      /url must be an http:\/\/ or https:\/\/ URL/,
    ],
    [
      'an unknown trust level',
      'mcp:\n  servers:\n    - name: a\n      command: x\n      annotationTrust: always\n',
      AgentErrorCode.ConfigInvalid,
      /annotationTrust must be one of "ignore", "read-only", "read-only-federated", "trust"/,
    ],
    [
      'a negative timeout',
      'mcp:\n  servers:\n    - name: a\n      command: x\n      requestTimeoutMs: -1\n',
      AgentErrorCode.ConfigInvalid,
      /requestTimeoutMs must be a positive whole number/,
    ],
    [
      'a name with capitals',
      'mcp:\n  servers:\n    - name: My Server\n      command: x\n',
      AgentErrorCode.InvalidServerName,
      /"My Server" is not allowed.*"my-server"/,
    ],
    [
      'a name ending in a hyphen',
      'mcp:\n  servers:\n    - name: a-\n      command: x\n',
      AgentErrorCode.InvalidServerName,
      /"a-" is not allowed/,
    ],
    [
      'two servers of one name',
      'mcp:\n  servers:\n    - { name: a, command: x }\n    - { name: a, command: y }\n',
      AgentErrorCode.ConfigDuplicateServer,
      /two servers are named "a"/,
    ],
    ['a list where a map belongs', '- a\n- b\n', AgentErrorCode.ConfigInvalid, /must be a map with "mcp"/],
  ])('refuses %s with a message that says where', (_, text, code, message) => {
    const error = failure(text);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).toContain('agent-cli.yaml');
  });

  it('names a missing ${VAR} but never shows a value', () => {
    const error = failure(
      'mcp:\n  servers:\n    - name: a\n      url: http://x/mcp\n      headers: { Authorization: "Bearer ${TOKEN}", X-Other: "${OTHER}" }\n',
      { TOKEN: 'secret-value' },
    );
    expect(error.code).toBe(AgentErrorCode.ConfigMissingVariable);
    expect(error.message).toContain('mcp.servers[0].headers.X-Other uses ${OTHER}');
    expect(error.message).not.toContain('secret-value');
  });

  it('keeps $${ as a literal ${', () => {
    expect(parse('mcp:\n  servers:\n    - name: a\n      command: x\n      env: { T: "$${HOME}" }\n')[0]).toMatchObject({
      env: { T: '${HOME}' },
    });
  });

  it('expands ${VAR} and ${VAR:-default} in every string field, not only env and headers (SPEC A20)', () => {
    const config = parseConfig(
      `llm:
  baseUrl: "http://\${LLM_HOST:-127.0.0.1}:11434/v1"
  model: "\${MODEL}"
mcp:
  servers:
    - name: "\${NAME:-files}"
      command: "\${TOOLS}/bin/server"
      args: ["--root", "\${ROOT}", "\${EMPTY:-fallback}"]
      cwd: "\${ROOT}"
    - name: remote
      url: "https://\${HOST}/mcp"
`,
      'agent-cli.yaml',
      { MODEL: 'llama3.1', TOOLS: '/opt/tools', ROOT: '/srv', EMPTY: '', HOST: 'mcp.example.com' },
    );
    expect(config.llm).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
    expect(config.servers[0]).toMatchObject({
      name: 'files',
      command: '/opt/tools/bin/server',
      args: ['--root', '/srv', 'fallback'],
      cwd: '/srv',
    });
    expect(config.servers[1]).toMatchObject({ url: new URL('https://mcp.example.com/mcp') });
  });

  it('names where a ${VAR} without a default is used, whatever the field, and how to give one', () => {
    const error = failure('mcp:\n  servers:\n    - name: a\n      command: "${TOOLS}/server"\n');
    expect(error.code).toBe(AgentErrorCode.ConfigMissingVariable);
    expect(error.message).toContain(
      'mcp.servers[0].command uses ${TOOLS}, but the environment variable TOOLS is not set; set it, or give a default: ${TOOLS:-value}',
    );
  });
});

it('reads the legacy SSE transport, as "transport: sse" and as the "type": "sse" of mcpServers files', () => {
  expect(parse('mcp:\n  servers:\n    - { name: old, transport: sse, url: "http://127.0.0.1:3001/sse" }\n')).toEqual([
    {
      name: 'old',
      transport: 'sse',
      url: new URL('http://127.0.0.1:3001/sse'),
      headers: {},
      requestTimeoutMs: 30_000,
      annotationTrust: 'ignore',
    },
  ]);
  expect(
    parse(JSON.stringify({ mcpServers: { old: { type: 'sse', url: 'http://127.0.0.1:3001/sse', headers: { 'X-Key': 'k' } } } })),
  ).toEqual([
    {
      name: 'old',
      transport: 'sse',
      url: new URL('http://127.0.0.1:3001/sse'),
      headers: { 'X-Key': 'k' },
      requestTimeoutMs: 30_000,
      annotationTrust: 'ignore',
    },
  ]);
});

describe('servers turned off (enabled: false)', () => {
  const text = (enabled: string) => `mcp:
  servers:
    - { name: jobs, command: x, enabled: ${enabled} }
    - { name: docs, url: "https://docs.example.com/mcp", enabled: true }
rewake:
  rules: [{ method: notifications/jobs/done, type: job.finished, server: jobs }]
`;

  it('are left out and named, and a rewake rule for one stays valid', () => {
    const config = parseConfig(text('false'), 'agent-cli.yaml', {});
    expect(config.servers.map((s) => s.name)).toEqual(['docs']);
    expect(config.disabledServers).toEqual(['jobs']);
    expect(config.rewake?.rules).toEqual([expect.objectContaining({ server: 'jobs' })]);
  });

  it('refuses a value that is not true or false, and still refuses a typo in a server turned off', () => {
    expect(failure(text('"no"')).message).toContain('mcp.servers[0].enabled must be true or false');
    expect(failure('mcp:\n  servers:\n    - { name: jobs, command: x, enabled: false, comand: y }\n').message).toContain('comand');
  });
});

describe("a server's tools allow and deny lists", () => {
  const entry = (tools: string) => `mcp:\n  servers:\n    - { name: files, command: x, tools: ${tools} }\n`;

  it('are read as given, either list alone', () => {
    expect(parse(entry('{ allow: ["read_*", list_directory], deny: ["*_media_*"] }'))[0].tools).toEqual({
      allow: ['read_*', 'list_directory'],
      deny: ['*_media_*'],
    });
    expect(parse(entry('{ deny: [write_file] }'))[0].tools).toEqual({ deny: ['write_file'] });
  });

  it('refuse what is not a list of names, and keys other than allow and deny', () => {
    expect(failure(entry('{ allow: [""] }')).message).toContain('mcp.servers[0].tools.allow[0] must be a tool name, or a pattern with *');
    expect(failure(entry('{ allow: read_file }')).message).toContain('mcp.servers[0].tools.allow must be a list of strings');
    expect(failure(entry('{ only: [x] }')).message).toContain('mcp.servers[0].tools.only is not a known setting (known: allow, deny)');
    expect(failure(entry('[read_file]')).message).toContain('mcp.servers[0].tools must be a map');
  });
});

describe('mcpServers import (Claude Desktop / Claude Code JSON)', () => {
  it('imports stdio and HTTP entries, mapping "type": "http" to Streamable HTTP and skipping disabled ones', () => {
    const servers = parse(
      JSON.stringify({
        mcpServers: {
          memory: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-memory'],
            env: { MEMORY_FILE_PATH: '/tmp/m.json' },
            autoApprove: [],
          },
          docs: { type: 'http', url: 'https://docs.example.com/mcp', headers: { 'X-Api-Key': '${KEY}' } },
          old: { command: 'x', disabled: true },
        },
      }),
      { KEY: 'k' },
    );
    expect(servers).toEqual([
      {
        name: 'memory',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-memory'],
        env: { MEMORY_FILE_PATH: '/tmp/m.json' },
        cwd: undefined,
        requestTimeoutMs: 30_000,
        annotationTrust: 'ignore',
      },
      // No Authorization header of its own: OAuth is on, with the defaults (SPEC A19).
      {
        name: 'docs',
        transport: 'streamable-http',
        url: new URL('https://docs.example.com/mcp'),
        headers: { 'X-Api-Key': 'k' },
        oauth: {},
        requestTimeoutMs: 30_000,
        annotationTrust: 'ignore',
      },
    ]);
  });

  it('leaves out an entry it cannot use (a name tool names cannot carry, a missing command) with a warning that says how to fix it, and uses the rest (SPEC A20)', () => {
    const config = parseConfig(
      JSON.stringify({ mcpServers: { 'GitHub Tools': { command: 'x' }, 'no-command': { args: ['a'] }, memory: { command: 'npx' } } }),
      'claude.json',
      {},
    );
    expect(config.servers.map((s) => s.name)).toEqual(['memory']);
    expect(config.warnings).toEqual([
      expect.stringMatching(
        /^claude\.json: the server "GitHub Tools" was left out: .*"github-tools".*\(fix the entry, or add "disabled": true, to use the other servers without this warning\)$/,
      ),
      expect.stringMatching(
        /^claude\.json: the server "no-command" was left out: .*mcpServers\.no-command\.command must be a non-empty string/,
      ),
    ]);
  });

  it("keeps the agent's own YAML strict: an unusable entry there is an error", () => {
    expect(failure('mcp:\n  servers:\n    - name: GitHub Tools\n      command: x\n').code).toBe(AgentErrorCode.InvalidServerName);
  });
});

describe('loadConfig', () => {
  it('says which file is missing and how to point at another', () => {
    expect(() => loadConfig('/nonexistent/agent-cli.yaml')).toThrow(
      expect.objectContaining({
        code: AgentErrorCode.ConfigNotFound,
        message: expect.stringMatching(/\/nonexistent\/agent-cli\.yaml does not exist.*--config/),
      }),
    );
  });

  it('reads a JSON file from disk', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'agent-config-')), 'claude_desktop_config.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'x' } } }));
    expect(loadConfig(file, {}).servers.map((s) => s.name)).toEqual(['a']);
  });
});

describe('agent configuration: the llm section', () => {
  const llm = (text: string) => parseConfig(text, 'agent-cli.yaml', {}).llm;
  const llmFailure = (text: string) => {
    try {
      llm(text);
    } catch (error) {
      return error as { code: string; message: string };
    }
    throw new Error('expected the llm section to be refused');
  };

  it('defaults to a local Ollama without a model, 20 turns and a 2-minute timeout', () => {
    expect(llm('mcp:\n  servers: []\n')).toEqual(DEFAULT_LLM_CONFIG);
    expect(DEFAULT_LLM_CONFIG).toEqual({
      provider: 'openai-chat',
      baseUrl: 'http://127.0.0.1:11434/v1',
      maxTurns: 20,
      requestTimeoutMs: 120_000,
      maxReplyMs: 900_000,
      maxToolResultChars: 100_000,
      audioInput: false,
      toolDefinitionBudget: 10_000,
    });
  });

  it('reads every setting', () => {
    expect(
      llm(`
llm:
  provider: openai-chat
  baseUrl: https://api.openai.com/v1
  model: gpt-4o-mini
  apiKeyEnv: OPENAI_API_KEY
  maxTurns: 5
  requestTimeoutMs: 30000
  maxReplyMs: 60000
  systemPrompt: Be brief.
  maxToolResultChars: 5000
  audioInput: true
  maxOutputTokens: 4096
  toolDefinitionBudget: 2500
`),
    ).toEqual({
      provider: 'openai-chat',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      apiKeyEnv: 'OPENAI_API_KEY',
      maxTurns: 5,
      requestTimeoutMs: 30_000,
      maxReplyMs: 60_000,
      systemPrompt: 'Be brief.',
      maxToolResultChars: 5000,
      audioInput: true,
      maxOutputTokens: 4096,
      toolDefinitionBudget: 2500,
    });
  });

  it.each([
    ['anthropic', 'https://api.anthropic.com'],
    ['openai-responses', 'https://api.openai.com/v1'],
    ['gemini', 'https://generativelanguage.googleapis.com'],
  ])('llm.provider %s defaults llm.baseUrl to its API', (provider, baseUrl) => {
    expect(llm(`llm:\n  provider: ${provider}\n  model: m\n`)).toMatchObject({ provider, baseUrl, model: 'm' });
  });

  it('uses the defaults for the mcpServers JSON of other MCP hosts, which has no llm section', () => {
    expect(parseConfig('{"mcpServers": {}}', 'claude.json', {}).llm).toEqual(DEFAULT_LLM_CONFIG);
  });

  it.each([
    [
      'llm:\n  baseURL: http://x\n',
      'agent-cli.yaml: llm.baseURL is not a known setting (known: provider, baseUrl, model, apiKeyEnv, maxTurns, requestTimeoutMs, maxReplyMs, systemPrompt, maxToolResultChars, audioInput, maxOutputTokens, toolDefinitionBudget)',
    ],
    ['llm:\n  provider: claude\n', 'agent-cli.yaml: llm.provider must be one of "openai-chat", "anthropic", "openai-responses", "gemini"'],
    [
      'llm:\n  provider: anthropic\n  audioInput: true\n',
      'agent-cli.yaml: llm.audioInput is for the providers that take audio (openai-chat, gemini), not anthropic',
    ],
    [
      'llm:\n  baseUrl: localhost:11434\n',
      'agent-cli.yaml: llm.baseUrl must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1',
    ],
    ['llm:\n  maxTurns: 0\n', 'agent-cli.yaml: llm.maxTurns must be a positive whole number'],
    [
      'llm:\n  apiKeyEnv: sk-abc123\n',
      'agent-cli.yaml: llm.apiKeyEnv must be the name of an environment variable (e.g. OPENAI_API_KEY), not the key itself',
    ],
  ])('refuses %j with a message naming the setting', (text, message) => {
    expect(llmFailure(text)).toMatchObject({ code: AgentErrorCode.ConfigInvalid, message });
  });
});
