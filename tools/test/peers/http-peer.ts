import { spawn } from 'node:child_process';
import path from 'node:path';

const SCRIPT = path.join(__dirname, 'sdk-http-server.mjs');
/** Our stand-in for the conformance suites' reference server: what every server scenario asks for (no `requests()`). */
export const CONFORMANCE_FEATURES_SCRIPT = path.join(__dirname, 'conformance-features-server.mjs');

/** One HTTP request the peer received: its method and headers, and the JSON-RPC message's method and `_meta`. */
export interface PeerRequest {
  readonly method: string;
  readonly sessionId: string | null;
  readonly protocolVersion: string | null;
  readonly authorization: string | null;
  readonly rpcMethod: string | null;
  readonly meta: Record<string, unknown> | null;
  /** Every header of the request, by lower-case name. */
  readonly headers: Record<string, string>;
}

export interface HttpPeer {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp */
  readonly url: string;
  readonly pid: number;
  /** What the peer recorded about each request it received (see sdk-http-server.mjs). */
  requests(): Promise<PeerRequest[]>;
  stop(): Promise<void>;
}

/** Starts tools/test/peers/sdk-http-server.mjs (or another peer `script`) on port 0 and resolves once it listens. */
export function startHttpPeer(flags: string[] = [], script = SCRIPT): Promise<HttpPeer> {
  const child = spawn(process.execPath, [script, ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code} before listening`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /LISTENING (\S+)/.exec(output);
      if (!match) return;
      const url = match[1];
      resolve({
        url,
        pid: child.pid as number,
        requests: async () => (await fetch(new URL('/__requests', url))).json() as never,
        stop: () =>
          new Promise<void>((done) => {
            // Killed by a signal (a test's SIGKILL), it has no exit code but is gone all the same.
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/**
 * A replay of a Python `mcp` 2.3.0 server whose tools ask the 2025 way (python-mcp-server.mjs): its wire
 * as captured, for CI, which has no PyPI.
 */
export const PYTHON_MCP_REPLAY_SCRIPT = path.join(__dirname, 'python-mcp-server.mjs');

/**
 * The real Python server the replay was captured from (python-mcp-server.py), run by `python` (a venv's,
 * with `mcp` 2.3.0) on `port`; resolves once it answers `server/discover`.
 */
export async function startPythonMcpServer(python: string, port: number): Promise<Pick<HttpPeer, 'url' | 'stop'>> {
  const child = spawn(python, [path.join(__dirname, 'python-mcp-server.py'), String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/mcp`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } };
  for (let tries = 0; tries < 100; tries += 1) {
    if (child.exitCode !== null) throw new Error(`${python} python-mcp-server.py exited with ${child.exitCode}`);
    const answered = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify(discover),
    }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('python-mcp-server.py did not answer server/discover within 10 s');
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'toolmesh-test', version: '1' },
};
