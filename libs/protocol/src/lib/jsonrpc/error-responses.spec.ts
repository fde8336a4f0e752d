import { registryUnavailable, toolNotFound } from './error-responses';

describe('the server-defined error responses', () => {
  it('-32001 names the unknown tool, shortened', () => {
    expect(toolNotFound(7, 'no_such_tool')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32001, message: 'Unknown tool: no_such_tool' },
    });
    expect(toolNotFound(7, 'x'.repeat(5000)).error.message.length).toBeLessThan(200);
  });

  it('-32003 says to retry later', () => {
    expect(registryUnavailable('r').error).toEqual({ code: -32003, message: expect.stringContaining('retry later') });
  });

  it('carries the code an era gives the same failure, with the same message', () => {
    expect(toolNotFound(7, 'no_such_tool', -32602).error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
    expect(registryUnavailable('r', -32603).error).toEqual({ code: -32603, message: registryUnavailable('r').error.message });
  });
});
