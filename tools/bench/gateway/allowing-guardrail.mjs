// The guardrail of `cpu-per-call.mjs --compare-interceptor`: a webhook interceptor's service (docs/gateway.md,
// "Interceptors") that reads each request whole and allows it, as SEP-2624's validation result. It does no
// work of its own, so what the gateway spends on the hop is what the measurement shows.
import { createServer } from 'node:http';

const ALLOW = JSON.stringify({ type: 'validation', valid: true });

/** The guardrail on a free loopback port, and the `interceptors` section that asks it on every call. */
export async function startAllowingGuardrail() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': ALLOW.length }).end(ALLOW));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/verdict`;
  return { server, yaml: `interceptors:\n  - { name: bench-guardrail, kind: webhook, webhook: { url: "${url}" } }\n` };
}
