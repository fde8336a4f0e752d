import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';

import { connectKeyValueStore, type ToolDefinition } from '@toolmesh/registry';
import { startRedis, type TestRedis } from '@toolmesh/test-peers/redis-server';
import { createLogger } from '@toolmesh/transport-http/server';

import type { TaskSettings } from '../../config/task-settings';
import { RedisTaskStore } from '../../task-state/redis-task-store';
import { MemoryTaskStore, type TaskStore } from '../../task-state/task-store';
import { UndiciToolClient } from '../../tool-client/undici-tool-client';
import { LongCalls } from './long-calls';
import { TaskService } from './task-service';

/**
 * The poller and the stores against a real job service on loopback (a status URL answering 202 until the
 * job is done) and a real Redis: due polls only, one replica at a time, TTL expiry, cancel, an unanswering
 * status URL, other callers.
 */
interface JobService {
  readonly url: string;
  /** Requests received, as "METHOD /path". */
  readonly hits: string[];
  /** When the job is done (Date.now ms); its reply then. */
  doneAt: number;
  close(): Promise<void>;
}

async function startJobService(): Promise<JobService> {
  const hits: string[] = [];
  const service = { hits, doneAt: Date.now() + 300 } as { hits: string[]; doneAt: number };
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.method === 'DELETE') return void res.writeHead(204).end();
    if (Date.now() < service.doneAt) return void res.writeHead(202, { 'retry-after': '0' }).end('{"statusMessage":"working"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"done"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(service, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

const SETTINGS: TaskSettings = {
  enabled: true,
  defaultTtlMillis: 60_000,
  maxTtlMillis: 120_000,
  poll: { defaultMillis: 50, minMillis: 20, maxMillis: 200 },
  statusTimeoutMillis: 500,
  maxFailedPolls: 3,
  listPageSize: 2,
  maxWorkingPerCaller: 2,
};
const logger = createLogger({ stream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
const tool = (url: string) =>
  ({ name: 'job', endpoint: new URL(`${url}/tools/job`), task: { support: 'optional', cancel: 'delete' } }) as unknown as ToolDefinition;

let jobs: JobService;
let redis: TestRedis;
const client = new UndiciToolClient({ connectionsPerOrigin: 4, maxReplyBytes: 65_536, maxReplyDepth: 32 });
const opened: Array<{ close(): void }> = [];

beforeAll(async () => {
  [jobs, redis] = await Promise.all([startJobService(), startRedis()]);
});
afterAll(async () => {
  for (const service of opened) service.close();
  await client.close();
  await jobs.close();
  await redis.kill();
});
beforeEach(() => {
  jobs.hits.length = 0;
  jobs.doneAt = Date.now() + 300;
});

const redisStore = () => {
  const store = new RedisTaskStore(
    connectKeyValueStore({ url: redis.url, connectTimeoutMillis: 2_000, commandTimeoutMillis: 1_000 }),
    'test',
    SETTINGS.maxTtlMillis,
  );
  return store;
};
const serviceOn = (store: TaskStore, settings = SETTINGS) => {
  const service = new TaskService(store, client, settings, () => undefined, logger);
  opened.push(service);
  return service;
};
const create = (service: TaskService, owner = 'alice', requestedTtlMillis?: number) =>
  service.create(
    { tool: tool(jobs.url), form: 'envelope', statusUrl: new URL(`${jobs.url}/jobs/1`), retryAfter: '0', owner, requestedTtlMillis },
    {},
  );
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

describe.each([
  ['memory', () => new MemoryTaskStore()],
  ['Redis', redisStore],
])('tasks in %s', (_name, makeStore) => {
  it('is found at once, polled on its own when due (Retry-After within bounds), and ends with the mapped reply', async () => {
    const service = serviceOn(makeStore());
    const task = await create(service);
    expect(await service.view(task.taskId, 'alice', {})).toMatchObject({ status: 'working', pollIntervalMs: SETTINGS.poll.minMillis });
    const started = Date.now();
    let ended = await service.view(task.taskId, 'alice', {});
    while (ended?.status === 'working' && Date.now() - started < 5_000) {
      await sleep(30);
      ended = await service.view(task.taskId, 'alice', {});
    }
    expect(ended).toMatchObject({ status: 'completed', result: { isError: false, content: [{ text: 'done' }] } });
    // Polled at most every minMillis (Retry-After 0 is raised to it), however often the caller asks, and no more once it ended.
    const polls = jobs.hits.filter((hit) => hit.startsWith('GET')).length;
    expect(polls).toBeGreaterThan(1);
    expect(polls).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / SETTINGS.poll.minMillis) + 2);
    await sleep(100);
    expect(jobs.hits.filter((hit) => hit.startsWith('GET'))).toHaveLength(polls);
  });

  it("is another caller's as if it did not exist: not read, not cancelled, not listed", async () => {
    const service = serviceOn(makeStore());
    const task = await create(service, 'alice');
    expect(await service.view(task.taskId, 'bob', {})).toBeUndefined();
    expect(await service.cancel(task.taskId, 'bob', {})).toBeUndefined();
    expect((await service.list('bob', undefined)).records.map((record) => record.taskId)).not.toContain(task.taskId);
    expect((await service.list('alice', undefined)).records.map((record) => record.taskId)).toContain(task.taskId);
  });

  it("lists a caller's tasks a page at a time, oldest first", async () => {
    const service = serviceOn(makeStore());
    const owner = `lister-${Math.random()}`;
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await create(service, owner)).taskId);
      await sleep(2);
    }
    const first = await service.list(owner, undefined);
    expect(first.records.map((record) => record.taskId)).toEqual(ids.slice(0, 2));
    const second = await service.list(owner, first.next);
    expect(second.records.map((record) => record.taskId)).toEqual(ids.slice(2));
    expect(second.next).toBeUndefined();
  });

  it('expires after its TTL, whatever its status', async () => {
    const service = serviceOn(makeStore());
    const task = await create(service, 'alice', 300);
    expect(task.ttlMs).toBe(300);
    await sleep(400);
    expect(await service.view(task.taskId, 'alice', {})).toBeUndefined();
    // A TTL asked beyond maxTtlMillis is cut to it.
    expect((await create(service, 'alice', 10_000_000)).ttlMs).toBe(SETTINGS.maxTtlMillis);
  });

  it("refuses a caller's task past mcp.tasks.maxWorkingPerCaller, counted across replicas, until one of them ends", async () => {
    jobs.doneAt = Date.now() + 60_000;
    const store = makeStore();
    // A second replica: another connection to the same Redis, or for memory the one store a lone replica has.
    const other = store instanceof MemoryTaskStore ? store : makeStore();
    const service = serviceOn(store);
    const owner = `capped-${Math.random()}`;
    const refusal = () => new LongCalls(client, SETTINGS, serviceOn(other), logger).refusal(tool(jobs.url), { owner });
    const first = await create(service, owner);
    await create(service, owner);
    expect(await refusal()).toMatchObject({
      kind: 'result',
      result: {
        isError: true,
        content: [{ text: expect.stringMatching(/mcp\.tasks\.maxWorkingPerCaller = 2.*tasks\/cancel.*gateway\.tasks_per_caller_full/) }],
      },
    });
    // Another caller (or anonymous callers' shared pool, `-`) has its own count.
    expect(await new LongCalls(client, SETTINGS, service, logger).refusal(tool(jobs.url), { owner: '-' })).toBeUndefined();
    await service.cancel(first.taskId, owner, {});
    expect(await refusal()).toBeUndefined();
  });

  it('cancel tells the service (DELETE on the status URL) and stays cancelled when the job then ends', async () => {
    const service = serviceOn(makeStore());
    const task = await create(service);
    expect(await service.cancel(task.taskId, 'alice', {})).toMatchObject({ status: 'cancelled' });
    expect(jobs.hits).toContain('DELETE /jobs/1');
    await sleep(500);
    expect(await service.view(task.taskId, 'alice', {})).toMatchObject({ status: 'cancelled' });
    expect(await service.cancel(task.taskId, 'alice', {})).toBe('terminal');
  });
});

it('two replicas on one Redis: a due poll is made by one of them, and the second finds the task the first created', async () => {
  const store = redisStore();
  const [first, second] = [
    serviceOn(store, { ...SETTINGS, poll: { ...SETTINGS.poll, minMillis: 1_000, defaultMillis: 1_000 } }),
    serviceOn(redisStore()),
  ];
  jobs.doneAt = Date.now() + 60_000;
  const task = await first.create(
    { tool: tool(jobs.url), form: 'envelope', statusUrl: new URL(`${jobs.url}/jobs/2`), retryAfter: '1', owner: 'alice' },
    {},
  );
  first.close(); // the creating replica is gone before its first poll
  await sleep(1_050);
  jobs.hits.length = 0;
  const views = await Promise.all([second.view(task.taskId, 'alice', {}), second.view(task.taskId, 'alice', {})]);
  expect(views.every((view) => view?.taskId === task.taskId)).toBe(true);
  expect(jobs.hits.filter((hit) => hit === 'GET /jobs/2')).toHaveLength(1);
});

it('a status URL that gives no answer maxFailedPolls times in a row fails the task, naming the setting', async () => {
  const service = serviceOn(new MemoryTaskStore());
  const task = await service.create(
    { tool: tool(jobs.url), form: 'envelope', statusUrl: new URL('http://127.0.0.1:9/jobs/none'), retryAfter: '0', owner: 'alice' },
    {},
  );
  let view = await service.view(task.taskId, 'alice', {});
  // Up to 10 s: on a loaded machine the failed reads come slower than maxFailedPolls x minMillis.
  for (let i = 0; i < 200 && view?.status === 'working'; i++) {
    await sleep(60);
    view = await service.view(task.taskId, 'alice', {});
  }
  expect(view).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringContaining('mcp.tasks.maxFailedPolls') } });
});
