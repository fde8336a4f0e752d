import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { until } from '@toolmesh/test-peers/process-table';
import { StallingToolService } from '@toolmesh/test-peers/stalling-tool-service';

const call = (mcpUrl: string, id: number) =>
  fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `call ${id}` } } }),
  });

/**
 * A gateway whose log reader goes away (the pipe of its standard output closed: EPIPE on the next write)
 * says so once on standard error and goes on serving; before, the stream's error killed the process.
 */
describe('the log stream closed under a running gateway', () => {
  let tools: StallingToolService;
  beforeAll(async () => {
    tools = await new StallingToolService().start();
  });
  afterAll(() => tools?.stop());

  it('keeps answering tool calls, and tells standard error once', async () => {
    const gateway = await spawnGateway(gatewayConfigFile(tools.url));
    const [, mcpUrl] = gateway.match;
    let errors = '';
    gateway.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    let exited = false;
    gateway.child.once('exit', () => (exited = true));
    try {
      expect((await call(mcpUrl, 1)).status).toBe(200);
      gateway.child.stdout?.destroy();
      // Every call logs lines; the first batch written after the close fails with EPIPE.
      for (let id = 2; id <= 6; id += 1) {
        const response = await call(mcpUrl, id);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain(`call ${id}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await until(() => errors.includes('the log stream failed'), 'the failure told on standard error');
      expect(errors.match(/the log stream failed \(EPIPE\)/g)).toHaveLength(1);
      expect((await call(mcpUrl, 7)).status).toBe(200);
      expect(exited).toBe(false);
    } finally {
      await gateway.stop();
    }
  });
});
