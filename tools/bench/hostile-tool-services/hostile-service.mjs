// The hostile tool service of run.mjs, in a process of its own so that writing its replies does not
// slow the benchmark's client: `echo` answers at once, `deep_reply` answers 8 MB of nested arrays,
// `stuck_a` / `stuck_b` never answer. Steered over HTTP by run.mjs: POST /control/huge and /control/small
// swap the manifest, POST /control/release answers the stuck calls and any that arrive later (the gateway
// forwards the calls it queued behind its per-tool cap as the held ones end), GET /control/stuck counts them.
import { createServer } from 'node:http';

const ARGS = { type: 'object', properties: { text: { type: 'string' } } };
const tool = (name) => ({ name, inputSchema: ARGS, endpoint: `/tools/${name}` });
const SMALL = JSON.stringify({ tools: ['echo', 'deep_reply', 'stuck_a', 'stuck_b'].map(tool) });
const HUGE = JSON.stringify({
  tools: Array.from({ length: 50_000 }, (_, i) => ({
    name: `bulk_${i}`,
    description: 'Bulk.',
    inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: i + 1 } } },
    endpoint: '/tools/echo',
  })),
});
const LEVELS = 4_000_000; // 8 MB of brackets: under the gateway's 8 MB reply limit
let manifest = SMALL;
const stuck = new Set();
let released = false;

const service = createServer((req, res) => {
  req.resume().once('end', () => {
    if (req.url === '/control/huge' || req.url === '/control/small') {
      manifest = req.url === '/control/huge' ? HUGE : SMALL;
      return void res.end();
    }
    if (req.url === '/control/stuck') return void res.end(String(stuck.size));
    if (req.url === '/control/release') {
      released = true;
      for (const held of stuck) held.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"released"}');
      return void res.end();
    }
    if (req.url === '/tool-manifest') return void res.writeHead(200, { 'content-type': 'application/json' }).end(manifest);
    if (req.url === '/tools/echo') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"ok"}');
    if (req.url === '/tools/deep_reply') return deepReply(res);
    if (released) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"released"}');
    stuck.add(res);
    res.once('close', () => stuck.delete(res));
  });
});
service.maxConnections = Infinity;
await new Promise((resolve) => service.listen({ port: 0, host: '127.0.0.1', backlog: 1024 }, resolve));

function deepReply(res) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = 64 * 1024;
  let open = LEVELS;
  let close = LEVELS;
  const write = () => {
    while (!res.destroyed && (open > 0 || close > 0)) {
      const part = open > 0 ? '['.repeat(Math.min(chunk, open)) : ']'.repeat(Math.min(chunk, close));
      if (open > 0) open -= part.length;
      else close -= part.length;
      if (!res.write(part)) return void res.once('drain', write);
    }
    if (!res.destroyed) res.end();
  };
  res.write('{"data":');
  write();
}

console.log(`listening on http://127.0.0.1:${service.address().port}`);
