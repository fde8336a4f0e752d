import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

import Redis from 'ioredis';

import { freePort } from './free-port';

/** A real redis-server process of the test's own, on a free port, with no persistence. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** The value at `key`, parsed; `undefined` when absent. */
  get(key: string): Promise<unknown>;
  set(key: string, value: string): Promise<void>;
  keys(): Promise<string[]>;
  /** How many GET commands the server has executed: proves whether a path read Redis at all. */
  getCalls(): Promise<number>;
  /** How many scripts (EVAL and EVALSHA) the server has run: the round trips of limits counted in Redis. */
  evalCalls(): Promise<number>;
  /** SIGSTOP: Redis hangs, its connections open and its commands unanswered, until `thaw`. */
  freeze(): void;
  /** SIGCONT: a frozen Redis answers again (what it was sent meanwhile first). */
  thaw(): void;
  /** SIGKILL: Redis is gone at once, as when its node dies. */
  kill(): Promise<void>;
}

/** Starts redis-server on a free port, or on `port` (a restart of one the test killed). */
export async function startRedis(port?: number): Promise<TestRedis> {
  port ??= await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 30_000);
    child.stdout?.on('data', () => {
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
    // Not installed: fail the test at once with what to do, instead of an unhandled 'error' event.
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not be started (${error.message}); install it, e.g. apt-get install -y redis-server`));
    });
  });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
  client.on('error', () => undefined); // the test kills the server on purpose
  await client.connect();
  return {
    url,
    port,
    get: async (key) => {
      const text = await client.get(key);
      return text === null ? undefined : JSON.parse(text);
    },
    set: async (key, value) => {
      await client.set(key, value);
    },
    keys: () => client.keys('*'),
    getCalls: () => commandCalls(client, 'get'),
    evalCalls: async () => (await commandCalls(client, 'eval')) + (await commandCalls(client, 'evalsha')),
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    kill: async () => {
      client.disconnect();
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

async function commandCalls(client: Redis, command: string): Promise<number> {
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(await client.info('commandstats'))?.[1] ?? 0);
}
