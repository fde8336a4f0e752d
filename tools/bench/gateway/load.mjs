// The load generators of the gateway benchmark. wrk (C, Debian's `wrk`) is the default when it is installed:
// it spends about a third of autocannon's CPU per request, which on two shared cores is CPU the servers
// under test get back. autocannon (npm) is the fallback and can be chosen with --load autocannon.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import autocannon from 'autocannon';

function wrkInstalled() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return error.code !== 'ENOENT'; // wrk --version exits with 1 after printing its version
  }
}

/** The load generator asked for with --load, checked; by default wrk when it is installed, else autocannon. */
export function chooseLoadGenerator(requested) {
  const load = requested ?? (wrkInstalled() ? 'wrk' : 'autocannon');
  if (load !== 'wrk' && load !== 'autocannon') throw new Error(`--load must be wrk or autocannon, not ${load}`);
  return load;
}

/** Drives `url` with POSTs of `body` for `duration` seconds: `{ requests, reqPerSec, p50Ms, p99Ms, errors, non2xx }`. */
export function runLoad(generator, { url, headers, body, connections, duration }) {
  return generator === 'wrk'
    ? runWrk({ url, headers, body, connections, duration })
    : runAutocannon({ url, headers, body, connections, duration });
}

async function runAutocannon({ url, headers, body, connections, duration }) {
  // timeout 60 s: the SDK recipe's p99 on 1,000 tools passes autocannon's 10 s default
  const r = await autocannon({ url, method: 'POST', headers, body, connections, duration, timeout: 60 });
  return {
    requests: r.requests.total,
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

async function runWrk({ url, headers, body, connections, duration }) {
  const scriptDir = mkdtempSync(path.join(tmpdir(), 'wrk-'));
  const script = path.join(scriptDir, 'post.lua');
  const lines = [
    'wrk.method = "POST"',
    `wrk.body = ${luaString(body)}`,
    ...Object.entries(headers).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`),
  ];
  writeFileSync(script, `${lines.join('\n')}\n`);
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--timeout', '60s', '--latency', '-s', script, url];
  const output = await new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
  }).finally(() => rmSync(scriptDir, { recursive: true, force: true }));
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? 0),
    reqPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? 0),
    p50Ms: latencyMs(output, '50%'),
    p99Ms: latencyMs(output, '99%'),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
  };
}

/** A percentile from wrk's --latency table, in milliseconds ("50%  612.00us", "99%  1.20ms", "99%  2.01s"). */
function latencyMs(output, percentile) {
  const match = new RegExp(`^\\s*${percentile}\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output);
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

function luaString(text) {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
