// The tool service of the gateway benchmark: as cheap as a REST service can be, so that it measures the
// gateways, not itself. Publishes TOOLS tools that all POST to /tools/echo, each with a schema of its own
// (a gateway compiles every distinct schema). With VARY_MANIFEST=1 every manifest fetch gets a new
// revision and one tool with a changed description and schema (the catalogue benchmark's refreshes).
import { createServer } from 'node:http';

const count = Number(process.env.TOOLS ?? 1000);
const tools = Array.from({ length: count }, (_, i) => ({
  name: `tool_${String(i).padStart(4, '0')}`,
  description: `Benchmark tool number ${i}: echoes its text argument back as JSON.`,
  inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 1000 + i } }, required: ['text'] },
  annotations: { readOnlyHint: true },
  endpoint: '/tools/echo',
  timeoutMillis: 5000,
}));
const fixedManifest = JSON.stringify({ manifestVersion: '1', revision: `bench-${count}`, tools });
let fetches = 0;
function manifest() {
  if (process.env.VARY_MANIFEST !== '1') return fixedManifest;
  fetches += 1;
  const varied = tools.map((tool, i) =>
    i === fetches % count
      ? {
          ...tool,
          description: `${tool.description} (fetch ${fetches})`,
          inputSchema: { ...tool.inputSchema, properties: { text: { type: 'string', minLength: fetches % 7 } } },
        }
      : tool,
  );
  return JSON.stringify({ manifestVersion: '1', revision: `bench-${count}-${fetches}`, tools: varied });
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.url === '/tool-manifest') return res.writeHead(200, { 'content-type': 'application/json' }).end(manifest());
    if (req.url === '/tools/echo' && req.method === 'POST') {
      const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { echo: text } }));
    }
    res.writeHead(404).end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`bench tool service listening on http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
