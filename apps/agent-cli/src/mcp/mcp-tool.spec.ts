import path from 'node:path';

import { McpClient } from '@toolmesh/mcp-client';
import { SchemaCompiler } from '@toolmesh/protocol';
import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';
import { ChildProcessTransport } from '@toolmesh/transport-stdio';

import { resultText } from '../tools/tool';
import { McpTool, mcpToolName, parseMcpToolName } from './mcp-tool';

const PEER = path.join(REPO_ROOT, 'tools/test/peers/stdio-peer.mjs');
const clientInfo = { name: 'mcp-tool-test', version: '0.0.0' };
const effects = { level: 'mutating', destructive: true, basis: 'assumed' } as const;

async function connectedTools(flags: string[] = [], command = process.execPath, args = [PEER, ...flags]) {
  const client = new McpClient(new ChildProcessTransport({ command, args }), { serverName: 'peer', clientInfo, requestTimeoutMs: 10_000 });
  await client.connect();
  const definitions = await client.listTools();
  const schemas = new SchemaCompiler();
  const tool = (name: string) => {
    const definition = definitions.find((d) => d.name === name) ?? { name, inputSchema: { type: 'object' } };
    return new McpTool(client, definition, effects, schemas.compile(definition.inputSchema));
  };
  return { client, tool };
}

describe('McpTool', () => {
  it('reads back the server and tool of a name it made, and nothing from any other name', () => {
    expect(parseMcpToolName(mcpToolName('files', 'read'))).toEqual({ server: 'files', tool: 'read' });
    expect(parseMcpToolName(mcpToolName('my-docs-2', 'search__all_v2'))).toEqual({ server: 'my-docs-2', tool: 'search__all_v2' });
    expect(parseMcpToolName(mcpToolName('files', 'two\nlines'))).toEqual({ server: 'files', tool: 'two\nlines' });
    for (const other of ['Read', 'mcp__files__', 'mcp__Files__read', 'mcp_files__read', 'xmcp__files__read'])
      expect(parseMcpToolName(other)).toBeUndefined();
  });

  it('is named mcp__<server>__<tool> and advertises the server schema untouched', async () => {
    const { client, tool } = await connectedTools();
    const echo = tool('echo');
    expect(mcpToolName('files', 'read')).toBe('mcp__files__read');
    expect(echo.name).toBe('mcp__peer__echo');
    expect(echo.inputSchema).toEqual({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }); // no additionalProperties added
    expect(echo.sideEffects).toBe(effects);
    await client.close();
  });

  it('calls the server and returns its result; arguments the schema does not mention pass through', async () => {
    const { client, tool } = await connectedTools();
    const result = await tool('echo').execute({ text: 'hi', extra: 1 });
    expect(result).toEqual({ isError: false, content: [{ type: 'text', text: '{"text":"hi","extra":1}' }], structuredContent: undefined });
    await client.close();
  });

  it('checks the arguments against the schema before calling', async () => {
    const { client, tool } = await connectedTools();
    const result = await tool('echo').execute({ text: 5 });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('invalid arguments for mcp__peer__echo: arguments.text must be string');
    await client.close();
  });

  describe('never throws', () => {
    it("returns the server's isError result as an error result", async () => {
      const { client, tool } = await connectedTools();
      const result = await tool('fail').execute({});
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the tool failed on purpose' }] });
      await client.close();
    });

    it('returns an error result when the server is disconnected', async () => {
      const { client, tool } = await connectedTools();
      const echo = tool('echo');
      await client.close();
      await expect(echo.execute({ text: 'x' })).resolves.toEqual({
        isError: true,
        content: [{ type: 'text', text: 'MCP server "peer" is not connected' }],
      });
    });

    it('returns an error result when the call fails (the server dies mid-call)', async () => {
      const { client, tool } = await connectedTools(['--crash-on-call']);
      const result = await tool('echo').execute({ text: 'x' });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatch(/^mcp__peer__echo failed: /);
      await client.close();
    });

    it('returns an error result for a JSON-RPC error (unknown tool)', async () => {
      const { client, tool } = await connectedTools();
      const result = await tool('missing').execute({});
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('Unknown tool: missing');
      await client.close();
    });

    it('returns an error result for a JSON-RPC error from a real npm server (server-everything, unknown tool)', async () => {
      const { client, tool } = await connectedTools([], EVERYTHING_BIN, []);
      const result = await tool('no-such-tool').execute({});
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatch(/^mcp__peer__no-such-tool failed: |no-such-tool/);
      await client.close();
    });
  });
});
