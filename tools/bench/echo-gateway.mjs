// The built gateway (dist/apps/gateway/main.js) in front of a tool service whose every tool answers
// {"data":"ok"}: the set-up of the benchmarks that attack the gateway itself (hostile-schema, slow-clients).
// Resolves its MCP and management URLs and a stop() for both processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `tools`: manifest tools without endpoints; each is served at /tools/echo. */
export async function startEchoGateway(tools) {
  const manifest = JSON.stringify({ tools: tools.map((tool) => ({ ...tool, endpoint: '/tools/echo' })) });
  const service = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(req.url === '/tool-manifest' ? manifest : '{"data":"ok"}'),
    );
  });
  await new Promise((resolve) => service.listen(0, '127.0.0.1', resolve));
  const config = path.join(mkdtempSync(path.join(tmpdir(), 'echo-gateway-')), 'gateway.yaml');
  writeFileSync(
    config,
    `server: { port: 0, managementPort: 0 }\nmcp:\n  bundles: [{ name: bench, serviceDomain: "http://127.0.0.1:${service.address().port}", manifestPath: /tool-manifest }]\n`,
  );
  const gateway = spawn(process.execPath, [path.join(root, 'dist/apps/gateway/main.js'), '--config', config], {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [mcpUrl, managementUrl] = await new Promise((resolve, reject) => {
    let output = '';
    gateway.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const match = /event=gateway_started mcpUrl=(\S+) managementUrl=(\S+)/.exec(output);
      if (match) resolve([match[1], match[2]]);
    });
    gateway.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${output}`)));
  });
  gateway.stdout.resume(); // keep draining its log, as a collector would
  const stop = () => {
    gateway.kill('SIGTERM');
    service.close();
  };
  return { mcpUrl, managementUrl, stop };
}
