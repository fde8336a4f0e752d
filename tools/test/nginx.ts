import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort } from './free-port';

/** Debian's nginx, started by the test on loopback in front of gateway replicas (round robin). */
export interface TestNginx {
  /** The MCP endpoint through nginx. */
  readonly url: string;
  /** The access log so far: one line per request, with every upstream nginx tried and its status. */
  accessLog(): string;
  /** Everything nginx logged as an error so far. */
  errorLog(): string;
  /** SIGTERM to the master (its workers follow), then its exit. */
  stop(): Promise<void>;
}

/**
 * Outside a root shell /usr/sbin is often not on the PATH, though Debian puts nginx there. Absent, the
 * test fails with what to do: it never skips.
 */
function nginxBinary(): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const dir of dirs.filter((entry) => entry !== '')) {
    const candidate = path.join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error('nginx is not installed: apt-get install nginx');
}

/**
 * The configuration; the retry rule is the decision written in docs/gateway.md, "Behind a load balancer".
 * Every path is inside `dir`, so it runs as any user; as root its workers stay root, since a worker
 * running as nobody could not enter the test's private temp dir.
 */
function nginxConf(dir: string, port: number, upstreams: readonly string[]): string {
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstreams '$request_method $status upstreams=$upstream_addr statuses=$upstream_status';
  access_log ${dir}/access.log upstreams;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # The caller's x-request-id, else one of nginx's own: the same on every attempt of one request, so a
  # tool service can recognise a call nginx replayed.
  map $http_x_request_id $forwarded_request_id {
    "" $request_id;
    default $http_x_request_id;
  }
  upstream gateways {
${upstreams.map((address) => `    server ${address};`).join('\n')}
    keepalive 32;
    # Below the gateway's 65 s keep-alive timeout, so nginx closes an idle connection first.
    keepalive_timeout 60s;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://gateways;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Request-Id $forwarded_request_id;
      # Event streams (2026 listen, 2025 GET) go out as they are written; the gateway also says so per
      # response (X-Accel-Buffering: no), and single JSON replies lose nothing unbuffered.
      proxy_buffering off;
      # Above the gateway's request deadline (270 s); streams send a keep-alive every 15 s.
      proxy_read_timeout 300s;
      # Another replica gets the request when this one refused the connection, answered 503 (a draining
      # gateway, before it reads the call), or closed the connection before any byte of a reply; never
      # after a timeout. non_idempotent: tools/call is a POST.
      proxy_next_upstream error http_503 non_idempotent;
    }
  }
}
`;
}

/** Starts nginx on a free loopback port with `upstreams` (host:port) as one round-robin upstream. */
export async function startNginx(upstreams: readonly string[]): Promise<TestNginx> {
  const binary = nginxBinary();
  const dir = mkdtempSync(path.join(tmpdir(), 'nginx-'));
  const port = await freePort();
  writeFileSync(path.join(dir, 'nginx.conf'), nginxConf(dir, port, upstreams));
  writeFileSync(path.join(dir, 'error.log'), '');
  writeFileSync(path.join(dir, 'access.log'), '');
  // -e: the log nginx writes before it has read the configuration, also inside the dir.
  const child: ChildProcess = spawn(binary, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', 'nginx.conf', '-g', 'daemon off;'], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await listening(port, child, () => `${output}${read('error.log')}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, accessLog: () => read('access.log'), errorLog: () => read('error.log'), stop };
}

/** Resolves once the port accepts connections; rejects, with nginx's own words, if nginx exits first. */
async function listening(port: number, child: ChildProcess, diagnostics: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let exited = false;
  child.once('exit', () => (exited = true));
  child.once('error', () => (exited = true)); // could not be started: reported with the diagnostics below
  while (!exited && Date.now() < deadline) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`nginx did not start on port ${port}: ${diagnostics()}`);
}
