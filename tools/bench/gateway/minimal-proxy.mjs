// Reference point, not a product: the least a tools/call proxy can do (node:http in, one undici POST out,
// no validation, no logging, no correlation). It shows how close the gateway gets to the ceiling that
// two HTTP hops on this machine allow.
import { createServer } from 'node:http';

import { Agent } from 'undici';

const toolService = new URL(process.env.TOOL_SERVICE_URL);
const agent = new Agent({ connections: 128 });

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const reply = await agent.request({
      origin: toolService.origin,
      path: '/tools/echo',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message.params.arguments),
    });
    const { data } = JSON.parse(await reply.body.text());
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: message.id,
      result: { content: [{ type: 'text', text: JSON.stringify(data) }], isError: false },
    });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`minimal proxy listening on http://127.0.0.1:${server.address().port}/mcp`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
