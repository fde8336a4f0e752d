// The tool service of the OpenAPI benchmark: one echo, offered twice. As a manifest tool (`echo_manifest`,
// POST /tools/echo with the arguments as the body, replying `{"data": {...}}`) and as an OpenAPI operation
// (`echoOpenApi`, GET /echo?text=..., replying the object itself). The same work either way, so that the
// gateway's CPU is all that differs: the same input and output schemas, so both reply with structuredContent.
import { createServer } from 'node:http';

const inputSchema = {
  type: 'object',
  properties: { text: { type: 'string', maxLength: 1000 } },
  required: ['text'],
  additionalProperties: false,
};
const manifest = JSON.stringify({
  manifestVersion: '1',
  tools: [
    {
      name: 'echo_manifest',
      description: 'Echoes its text.',
      inputSchema,
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      endpoint: '/tools/echo',
    },
  ],
});
const document = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'echo', version: '1' },
  paths: {
    '/echo': {
      get: {
        operationId: 'echoOpenApi',
        summary: 'Echoes its text.',
        parameters: [{ name: 'text', in: 'query', required: true, schema: { type: 'string', maxLength: 1000 } }],
        responses: { 200: { description: 'the echo', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
});

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const json = (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (req.url === '/tool-manifest') return json(manifest);
    if (req.url === '/openapi.json') return json(document);
    if (req.url === '/tools/echo' && req.method === 'POST') {
      return json(JSON.stringify({ data: { echo: JSON.parse(Buffer.concat(chunks).toString('utf8')).text } }));
    }
    if (req.url.startsWith('/echo?') && req.method === 'GET') {
      return json(JSON.stringify({ echo: new URL(req.url, 'http://x').searchParams.get('text') }));
    }
    res.writeHead(404).end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`openapi tool service listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
