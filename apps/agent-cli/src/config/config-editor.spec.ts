import { AgentErrorCode } from '../errors/agent-errors';
import { ConfigEditor } from './config-editor';
import { parseConfig } from './load-config';

const AGENT_FILE = `# the agent's configuration
llm:
  model: llama3.1 # the model
mcp:
  servers:
    - name: files # the first server
      command: npx
      args: [-y, "@modelcontextprotocol/server-filesystem", /tmp]
hooks: [guard.yaml]
`;

describe("ConfigEditor on the agent's YAML", () => {
  it('adds a stdio and an HTTP server after the others, keeping comments, order and the other settings', () => {
    const editor = new ConfigEditor('agent-cli.yaml', AGENT_FILE);
    editor.add({
      name: 'memory',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: '${HOME}/m.json' },
    });
    editor.add({
      name: 'docs',
      transport: 'streamable-http',
      url: 'https://docs.example.com/mcp',
      headers: { Authorization: 'Bearer ${DOCS_TOKEN}' },
    });
    const text = editor.toString();

    expect(text.startsWith(AGENT_FILE.slice(0, AGENT_FILE.indexOf('hooks')))).toBe(true);
    expect(text).toContain('# the first server');
    expect(text).toContain('hooks: [guard.yaml]');
    const config = parseConfig(text.replace('hooks: [guard.yaml]\n', ''), 'agent-cli.yaml', { HOME: '/home/u', DOCS_TOKEN: 't' });
    expect(config.servers.map((s) => s.name)).toEqual(['files', 'memory', 'docs']);
    expect(config.servers[1]).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-memory'],
      env: { MEMORY_FILE_PATH: '/home/u/m.json' },
    });
    expect(config.servers[2]).toMatchObject({
      transport: 'streamable-http',
      url: new URL('https://docs.example.com/mcp'),
      headers: { Authorization: 'Bearer t' },
    });
    expect(text).toContain('${DOCS_TOKEN}'); // written as given, expanded only when read
  });

  it('removes a server and leaves the rest of the file as it was: add then remove is the file it started as', () => {
    const editor = new ConfigEditor('agent-cli.yaml', AGENT_FILE);
    editor.add({ name: 'memory', transport: 'stdio', command: 'npx' });
    const added = new ConfigEditor('agent-cli.yaml', editor.toString());
    added.remove('memory');
    expect(added.toString()).toBe(new ConfigEditor('agent-cli.yaml', AGENT_FILE).toString());
    added.remove('files');
    expect(added.list()).toEqual([]);
    expect(added.toString()).toContain('model: llama3.1 # the model');
  });

  it('starts a server list in an empty file', () => {
    const editor = new ConfigEditor('agent-cli.yaml', '');
    editor.add({ name: 'memory', transport: 'stdio', command: 'npx' });
    expect(parseConfig(editor.toString(), 'agent-cli.yaml', {}).servers).toEqual([
      expect.objectContaining({ name: 'memory', command: 'npx' }),
    ]);
  });

  it('lists the entries as written, before ${VAR} expansion', () => {
    const editor = new ConfigEditor('agent-cli.yaml', 'mcp:\n  servers:\n    - name: a\n      url: "https://${HOST}/mcp"\n');
    expect(editor.list()).toEqual([{ name: 'a', entry: { name: 'a', url: 'https://${HOST}/mcp' } }]);
  });

  it('refuses to add a name that is there, and to remove one that is not, naming the file', () => {
    const editor = new ConfigEditor('agent-cli.yaml', AGENT_FILE);
    expect(() => editor.add({ name: 'files', transport: 'stdio', command: 'x' })).toThrow(
      expect.objectContaining({
        code: AgentErrorCode.ConfigDuplicateServer,
        message: expect.stringContaining('agent-cli mcp remove files'),
      }),
    );
    expect(() => editor.remove('nope')).toThrow(
      expect.objectContaining({
        code: AgentErrorCode.ServerNotFound,
        message: 'agent-cli.yaml has no server named "nope" (configured: files)',
      }),
    );
  });

  it('refuses a file that is not a configuration', () => {
    expect(() => new ConfigEditor('agent-cli.yaml', '- a\n')).toThrow(expect.objectContaining({ code: AgentErrorCode.ConfigInvalid }));
    expect(() => new ConfigEditor('agent-cli.yaml', 'mcp: [a\n')).toThrow(expect.objectContaining({ code: AgentErrorCode.ConfigInvalid }));
  });
});

describe('ConfigEditor on an mcpServers JSON file', () => {
  const HOST_FILE = JSON.stringify(
    {
      mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], autoApprove: [] } },
      globalShortcut: 'Ctrl+Space',
    },
    null,
    2,
  );

  it('adds in that format ("type": "http") and removes, keeping the other hosts\' keys', () => {
    const editor = new ConfigEditor('claude.json', HOST_FILE);
    editor.add({ name: 'docs', transport: 'streamable-http', url: 'https://docs.example.com/mcp' });
    const added = JSON.parse(editor.toString());
    expect(added).toEqual({
      mcpServers: {
        memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], autoApprove: [] },
        docs: { type: 'http', url: 'https://docs.example.com/mcp' },
      },
      globalShortcut: 'Ctrl+Space',
    });
    expect(parseConfig(editor.toString(), 'claude.json', {}).servers.map((s) => [s.name, s.transport])).toEqual([
      ['memory', 'stdio'],
      ['docs', 'streamable-http'],
    ]);

    editor.remove('docs');
    expect(editor.toString()).toBe(`${HOST_FILE}\n`);
  });
});
