import { McpClientErrorCode } from './client-errors';
import { askedTheLegacyWay } from './legacy-asks';

/** The texts as each SDK sends them at 2026-07-28 (tools/test/peers/python-mcp-server.mjs has the whole exchange). */
const PYTHON = "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests.";
const FASTMCP = 'elicitation via server-initiated requests is unavailable on 2026-07-28 connections.';
const FASTMCP_SAMPLING = `Error calling tool 'summarize': ${PYTHON.replace('elicitation/create', 'sampling/createMessage')}`;
const TYPESCRIPT =
  "Server-to-client requests are not available on protocol revision 2026-07-28: 'sampling/createMessage' cannot be sent while serving a request on that revision.";

const toolError = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

describe('a 2026-07-28 call its server failed by asking the 2025 way', () => {
  it.each([PYTHON, FASTMCP, FASTMCP_SAMPLING, TYPESCRIPT])('is told from a tool error: %s', (text) => {
    const error = askedTheLegacyWay('py', toolError(text), false);
    expect(error?.code).toBe(McpClientErrorCode.ServerRequestsNeedLegacy);
    expect(error?.message).toBe(
      `MCP server "py" asked its client with a request of its own, which 2026-07-28 has no channel for: ${JSON.stringify(text)}`,
    );
  });

  it('is told from a JSON-RPC error, the error kept as its cause', () => {
    const thrown = new Error(PYTHON);
    const error = askedTheLegacyWay('py', thrown, true);
    expect(error?.code).toBe(McpClientErrorCode.ServerRequestsNeedLegacy);
    expect(error?.cause).toBe(thrown);
  });

  it('is not any other outcome: a success saying the words, another tool error, another failure', () => {
    expect(askedTheLegacyWay('py', { content: [{ type: 'text', text: PYTHON }], isError: false }, false)).toBeUndefined();
    expect(askedTheLegacyWay('py', toolError('division by zero'), false)).toBeUndefined();
    expect(askedTheLegacyWay('py', new Error('Method not found'), true)).toBeUndefined();
    expect(askedTheLegacyWay('py', undefined, false)).toBeUndefined();
  });
});
