/**
 * The bridge between node:http and an SDK handler that speaks web Requests and Responses (the peers'
 * `WebStandardStreamableHTTPServerTransport.handleRequest`, `createMcpHandler().fetch`).
 */

/** The node request as a web Request, its body read whole (none for a GET). */
export async function webRequestOf(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  const body = chunks.length && req.method !== 'GET' ? Buffer.concat(chunks) : undefined;
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body });
}

/**
 * Writes a web Response to the node response. An event stream is passed on as it comes (a call's progress
 * goes on its stream before the result); a client that goes away ends it.
 */
export async function sendWebResponse(res, response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return res.end();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  } catch {
    // the client went away
  }
  res.end();
}
