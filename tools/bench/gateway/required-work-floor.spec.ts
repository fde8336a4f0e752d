import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * The required-work floor is a baseline the gateway's CPU goals are read against (docs/benchmarks.md, "The
 * required-work floor"); its figures mean something only if it does the work it names. Each part is shown
 * here by what it refuses or sends, and leaving a part out (FLOOR_WITHOUT) by the refusal going away.
 */
const FLOOR = path.join(__dirname, 'required-work-floor.mjs');
const ECHO_SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const LEGACY = '2025-11-25';

interface Seen {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** A tool service (manifest and one tool) or a 2025 MCP server that answers `tools/call` only when `answer` says so. */
async function startUpstream(kind: 'rest' | 'mcp', options: { answer?: boolean } = {}) {
  const seen: Seen[] = [];
  let hungUp = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const json = (value: unknown, headers = {}) =>
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (kind === 'rest') {
        if (req.url === '/tool-manifest') return json({ tools: [{ name: 'echo', endpoint: '/tools/echo', inputSchema: ECHO_SCHEMA }] });
        seen.push({ headers: req.headers, body: JSON.parse(text) });
        return json({ data: { echo: JSON.parse(text).text } });
      }
      const message = JSON.parse(text);
      if (message.id === undefined) return res.writeHead(202).end();
      if (message.method === 'initialize') return json({ jsonrpc: '2.0', id: message.id, result: {} }, { 'mcp-session-id': 's1' });
      if (message.method === 'tools/list')
        return json({ jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'echo', inputSchema: ECHO_SCHEMA }] } });
      seen.push({ headers: req.headers, body: message });
      if (options.answer === false) return void req.socket.once('close', () => (hungUp += 1));
      return json({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: message.params.arguments.text }] } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${kind === 'mcp' ? '/mcp' : ''}`;
  return { server, url, seen, hungUp: () => hungUp };
}

const children: ChildProcess[] = [];
const servers: Server[] = [];

async function startFloor(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [FLOOR], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const ready = /listening on (\S+)/.exec(output);
      if (ready) resolve(ready[1]);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`the floor exited with ${code}: ${output}`)));
  });
}

function call(url: string, args: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LEGACY,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: args } }),
    signal,
  });
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('the required-work floor', () => {
  it('forwards a REST call with the correlation ids and refuses what the gateway refuses', async () => {
    const upstream = await startUpstream('rest');
    servers.push(upstream.server);
    const floor = await startFloor({ TOOL_SERVICE_URL: upstream.url });

    const ok = await call(floor, { text: 'hello' }, { guid: 'g-1' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('guid')).toBe('g-1');
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ok.json()).toMatchObject({ id: 7, result: { content: [{ text: '{"echo":"hello"}' }] } });
    expect(upstream.seen[0].headers).toMatchObject({ guid: 'g-1', 'x-request-id': ok.headers.get('x-request-id') });

    expect(await (await call(floor, { text: 1 })).json()).toMatchObject({ result: { isError: true } }); // validation
    expect((await call(floor, { text: 'x' }, { guid: 'bad guid' })).status).toBe(400); // correlation
    expect((await call(floor, { text: 'x' }, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400); // checks
    const proto = await fetch(floor, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': LEGACY },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"text":"x"}}}}',
    });
    expect(proto.status).toBe(400); // envelope
    expect(upstream.seen).toHaveLength(1);
  });

  it('without a part, does not do its work', async () => {
    const upstream = await startUpstream('rest');
    servers.push(upstream.server);
    const floor = await startFloor({ TOOL_SERVICE_URL: upstream.url, FLOOR_WITHOUT: 'validation,checks' });

    expect((await call(floor, { text: 1 })).status).toBe(200);
    expect((await call(floor, { text: 'x' }, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(200);
    expect(upstream.seen).toHaveLength(2);
    await expect(startFloor({ TOOL_SERVICE_URL: upstream.url, FLOOR_WITHOUT: 'nothing' })).rejects.toThrow(/unknown part nothing/);
  });

  it('forwards an MCP call with the ids in _meta, and a client that hangs up cancels it', async () => {
    const upstream = await startUpstream('mcp', { answer: false });
    servers.push(upstream.server);
    const floor = await startFloor({ MCP_SERVER_URL: upstream.url });

    const client = new AbortController();
    const pending = call(floor, { text: 'hello' }, { guid: 'g-2' }, client.signal).catch(() => undefined);
    await waitFor(() => upstream.seen.length === 1);
    expect(upstream.seen[0].headers).toMatchObject({ 'mcp-session-id': 's1', guid: 'g-2' });
    expect(upstream.seen[0].body).toMatchObject({ method: 'tools/call', params: { _meta: { 'io.toolmesh/guid': 'g-2' } } });
    client.abort();
    await pending;
    await waitFor(() => upstream.hungUp() === 1);
  });

  it('with an issuer, calls only with a valid token and sends its subject', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256' }] });
    const issuerServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    servers.push(issuerServer);
    const issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    const token = (scope: string) =>
      new SignJWT({ sub: 'alice', scope })
        .setProtectedHeader({ alg: 'RS256', kid: 'k' })
        .setIssuer(issuer)
        .setAudience('http://floor.invalid/mcp')
        .setExpirationTime('1h')
        .sign(privateKey);
    const upstream = await startUpstream('rest');
    servers.push(upstream.server);
    const floor = await startFloor({ TOOL_SERVICE_URL: upstream.url, FLOOR_ISSUER: issuer, FLOOR_AUDIENCE: 'http://floor.invalid/mcp' });

    expect((await call(floor, { text: 'x' })).status).toBe(401);
    expect((await call(floor, { text: 'x' }, { authorization: `Bearer ${await token('other')}` })).status).toBe(401);
    const ok = await call(floor, { text: 'x' }, { authorization: `Bearer ${await token('tools')}` });
    expect(ok.status).toBe(200);
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0].headers['x-user-subject']).toBe('alice');
    expect(upstream.seen[0].headers.authorization).toBeUndefined();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
