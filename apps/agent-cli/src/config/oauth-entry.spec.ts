import { AgentErrorCode } from '../errors/agent-errors';
import type { HttpServerConfig } from '../mcp/server-config';
import { parseConfig } from './load-config';

/** A server's `oauth` setting as the configuration file gives it (SPEC A19; docs/agent-cli.md, "OAuth"). */
const server = (entry: string, env: NodeJS.ProcessEnv = {}) =>
  parseConfig(`mcp:\n  servers:\n    - { name: remote, url: "https://mcp.example.com/mcp"${entry} }\n`, 'agent-cli.yaml', env)
    .servers[0] as HttpServerConfig;
const refusal = (entry: string) => {
  try {
    server(entry);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('the entry was accepted');
};

describe('oauth settings of a server', () => {
  it('is on with the defaults unless the headers carry an Authorization of their own, or it is turned off', () => {
    expect(server('').oauth).toEqual({});
    expect(server(', oauth: true').oauth).toEqual({});
    expect(server(', headers: { authorization: "Bearer t" }').oauth).toBeUndefined();
    expect(server(', oauth: false').oauth).toBeUndefined();
  });

  it('reads every setting, ${VAR}s expanded', () => {
    const entry =
      ', oauth: { clientId: agent, clientSecret: "${SECRET}", scopes: [read, write], callbackPort: 33418, clientMetadataUrl: "https://example.com/agent.json" }';
    expect(server(entry, { SECRET: 's3cr3t' }).oauth).toEqual({
      clientId: 'agent',
      clientSecret: 's3cr3t',
      scopes: ['read', 'write'],
      callbackPort: 33418,
      clientMetadataUrl: 'https://example.com/agent.json',
    });
  });

  it.each([
    [', oauth: { clientID: x }', 'mcp.servers[0].oauth.clientID is not a known setting'],
    [', oauth: { clientSecret: s }', 'mcp.servers[0].oauth.clientSecret needs clientId beside it'],
    [', oauth: { callbackPort: 70000 }', 'mcp.servers[0].oauth.callbackPort must be a port number (1-65535)'],
    [', oauth: { callbackPort: 0 }', 'mcp.servers[0].oauth.callbackPort must be a positive whole number'],
    [
      ', oauth: { clientMetadataUrl: "http://example.com/agent.json" }',
      'mcp.servers[0].oauth.clientMetadataUrl must be an https:// URL with a path',
    ],
    [', oauth: { scopes: read }', 'mcp.servers[0].oauth.scopes must be a list of strings'],
    [', oauth: maybe', 'mcp.servers[0].oauth must be true or false'],
  ])('refuses %s, naming the setting', (entry, message) => {
    expect(refusal(entry)).toMatchObject({ code: AgentErrorCode.ConfigInvalid, message: expect.stringContaining(message) });
  });

  it('is refused on a transport that has no OAuth', () => {
    const sse = () =>
      parseConfig(
        'mcp:\n  servers:\n    - { name: old, transport: sse, url: "http://127.0.0.1:3001/sse", oauth: {} }\n',
        'agent-cli.yaml',
        {},
      );
    expect(sse).toThrow('mcp.servers[0].oauth is for streamable-http servers');
    const stdio = () => parseConfig('mcp:\n  servers:\n    - { name: local, command: node, oauth: {} }\n', 'agent-cli.yaml', {});
    expect(stdio).toThrow('mcp.servers[0].oauth is for streamable-http servers');
  });
});
