import { gatewayConfigFile, spawnGateway } from '@toolmesh/test-peers/gateway-process';
import { startNginx } from '@toolmesh/test-peers/nginx';
import { until } from '@toolmesh/test-peers/process-table';
import { startRedis } from '@toolmesh/test-peers/redis-server';
import { type SampleToolService, startSampleToolService } from '@toolmesh/test-peers/sample-tool-service';
import type { ServerProcess } from '@toolmesh/test-peers/server-process';

import type { GatewayConfig } from '../config/gateway-config';
import { modernMessage } from '../test-support/modern-request';
import { openStream } from '../test-support/notification-streams';
import { startTestGateway, type TestGateway } from '../test-support/test-gateway';
import { authTrusting, startTokenIssuer, type TokenIssuer } from '../test-support/token-issuer';

/**
 * Long REST calls as tasks (issue 47), end to end: the sample service's `slow_compute` answers 202 Accepted
 * with a job to poll, and runs three times longer than the call deadline (1 s).
 */
const DEADLINE_MILLIS = 1_000;
const JOB_SECONDS = 3;
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const AUDIENCE = 'https://gateway.test.invalid/mcp';

interface Reply {
  result?: Record<string, unknown> & { task?: { taskId: string; status: string }; taskId?: string; status?: string; isError?: boolean };
  error?: { code: number; message: string };
}

/** A 2026-07-28 request's body and headers; `tasks` declares the Tasks extension. */
const modern = (method: string, params: Record<string, unknown>, tasks: boolean) =>
  modernMessage(method, params, { capabilities: tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {} });

async function postModern(url: string, method: string, params: Record<string, unknown>, tasks = true): Promise<Reply> {
  const { body, headers } = modern(method, params, tasks);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Reply;
}

const resultText = (result: unknown) => (result as { content?: Array<{ text?: string }> } | undefined)?.content?.[0]?.text;

function tasksOn(config: GatewayConfig): void {
  config.mcp.maxToolTimeoutMillis = DEADLINE_MILLIS;
  config.mcp.tasks = { ...config.mcp.tasks, enabled: true, poll: { defaultMillis: 500, minMillis: 100, maxMillis: 1_000 } };
}

/** Caller auth on, trusting `issuer`'s tokens with the `tools` scope. */
function authOn(config: GatewayConfig, issuer: TokenIssuer): void {
  config.auth = { ...authTrusting(issuer, AUDIENCE), algorithms: ['RS256'], scopesSupported: ['tools'] };
}

/** The headers of alice's and bob's calls: each a token of `issuer` with the `tools` scope. */
function aliceAndBob(issuer: TokenIssuer): Promise<Array<Record<string, string>>> {
  const token = async (sub: string) => ({ authorization: `Bearer ${await issuer.sign({ sub, client_id: 'agent', scope: 'tools' })}` });
  return Promise.all([token('alice'), token('bob')]);
}

describe('a REST tool three times longer than the call deadline, one gateway with caller auth', () => {
  let issuer: TokenIssuer;
  let tools: SampleToolService;
  let gw: TestGateway;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  beforeAll(async () => {
    issuer = await startTokenIssuer(AUDIENCE);
    tools = await startSampleToolService();
    gw = await startTestGateway(tools.url, (config) => {
      tasksOn(config);
      authOn(config, issuer);
      config.mcp.tasks = { ...config.mcp.tasks, maxWorkingPerCaller: 2 };
    });
    [alice, bob] = await aliceAndBob(issuer);
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
    await tools?.stop();
    await issuer?.close();
  });

  const legacy = async (method: string, params: Record<string, unknown>, as: Record<string, string>): Promise<Reply> =>
    (await (await gw.post({ jsonrpc: '2.0', id: 7, method, params }, as)).json()) as Reply;

  it('completes as a task (2025-11-25); another subject cannot read, cancel or list it', async () => {
    const created = await legacy(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: JOB_SECONDS, label: 'q3' }, task: { ttl: 60_000 } },
      alice,
    );
    const taskId = created.result?.task?.taskId as string;
    expect(created.result?.task).toMatchObject({ status: 'working', ttl: 60_000 });

    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result'])
      expect({ method, error: (await legacy(method, { taskId }, bob)).error?.code }).toEqual({ method, error: -32602 });
    const bobs = await legacy('tasks/list', {}, bob);
    expect(bobs.result?.tasks).toEqual([]);
    expect((await postModern(gw.url, 'tasks/get', { taskId }).catch(() => undefined))?.error).toBeDefined(); // no token: refused at the door

    const listed = (await legacy('tasks/list', {}, alice)).result?.tasks as Array<{ taskId: string }>;
    expect(listed.map((task) => task.taskId)).toEqual([taskId]);
    const started = performance.now();
    const result = await legacy('tasks/result', { taskId }, alice);
    expect(resultText(result.result)).toBe(`computed q3 in ${JOB_SECONDS} s`);
    expect(result.result?._meta).toMatchObject({ 'io.modelcontextprotocol/related-task': { taskId } });
    expect(performance.now() - started).toBeGreaterThan(1_000); // tasks/result waited for the job
    expect((await legacy('tasks/get', { taskId }, alice)).result).toMatchObject({ taskId, status: 'completed' });
  }, 30_000);

  it("a caller without the task capability gets today's answer within the deadline, in both eras", async () => {
    for (const call of [
      () => legacy('tools/call', { name: 'slow_compute', arguments: { seconds: JOB_SECONDS } }, alice),
      async () => {
        const { body, headers } = modern('tools/call', { name: 'slow_compute', arguments: { seconds: JOB_SECONDS } }, false);
        return (await (await gw.post(body, { ...alice, ...headers })).json()) as Reply;
      },
    ]) {
      const started = performance.now();
      const reply = await call();
      expect(performance.now() - started).toBeLessThan(DEADLINE_MILLIS + 500);
      expect(reply.result?.isError).toBe(true);
      expect(resultText(reply.result)).toContain(`no complete reply within`);
    }
    // A job that ends within the deadline is waited for: its reply is the call's result.
    const quick = await legacy('tools/call', { name: 'slow_compute', arguments: { seconds: 0, label: 'now' } }, alice);
    expect(resultText(quick.result)).toBe('computed now in 0 s');
    // A tool whose tasks are required is refused without one (-32601, 2025-11-25).
    expect((await legacy('tools/call', { name: 'failing_job', arguments: {} }, alice)).error?.code).toBe(-32601);
  }, 30_000);

  it("a caller's task past mcp.tasks.maxWorkingPerCaller is refused in both eras before the service is called", async () => {
    const carol = { authorization: `Bearer ${await issuer.sign({ sub: 'carol', client_id: 'agent', scope: 'tools' })}` };
    const long = { name: 'slow_compute', arguments: { seconds: 30 } };
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push((await legacy('tools/call', { ...long, task: {} }, carol)).result?.task?.taskId as string);
    const sent = (await tools.calls()).length;
    const { body, headers } = modern('tools/call', long, true);
    for (const reply of [
      await legacy('tools/call', { ...long, task: {} }, carol),
      (await (await gw.post(body, { ...carol, ...headers })).json()) as Reply,
    ]) {
      expect(reply.result?.isError).toBe(true);
      expect(resultText(reply.result)).toMatch(/mcp\.tasks\.maxWorkingPerCaller = 2.*tasks\/cancel.*gateway\.tasks_per_caller_full/);
    }
    expect(await tools.calls()).toHaveLength(sent);
    for (const taskId of ids) await legacy('tasks/cancel', { taskId }, carol);
  }, 30_000);

  it("status notifications reach the task's own caller only: on a 2025 GET stream, and on a 2026 listen for its id", async () => {
    const getStream = (as: Record<string, string>) =>
      openStream(gw.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25', ...as } });
    const [alices, bobs] = await Promise.all([getStream(alice), getStream(bob)]);
    const created = await legacy('tools/call', { name: 'slow_compute', arguments: { seconds: 2, label: 'told' }, task: {} }, alice);
    const taskId = created.result?.task?.taskId as string;
    const { body, headers } = modern('subscriptions/listen', { notifications: { taskIds: [taskId, 'no-such-task'] } }, true);
    const listen = await openStream(gw.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers, ...alice },
      body: JSON.stringify(body),
    });
    const isStatus = (method: string) => (message: Record<string, unknown>) =>
      message.method === method && (message.params as { taskId?: string; status?: string }).status === 'completed';
    try {
      // Only the caller's own task is agreed to.
      expect(await listen.next((m) => m.method === 'notifications/subscriptions/acknowledged')).toMatchObject({
        params: { notifications: { taskIds: [taskId] } },
      });
      expect((await alices.next(isStatus('notifications/tasks/status'))).params).toMatchObject({
        taskId,
        status: 'completed',
        pollInterval: expect.any(Number), // the 2025-11-25 shape
      });
      const modernStatus = (await listen.next(isStatus('notifications/tasks'))).params as Record<string, unknown>;
      expect(modernStatus).toMatchObject({
        taskId,
        status: 'completed',
        ttlMs: expect.any(Number),
        _meta: { 'io.modelcontextprotocol/subscriptionId': 1 },
      });
      expect(resultText(modernStatus.result)).toBe('computed told in 2 s');
      expect(bobs.messages.filter((m) => String(m.method).startsWith('notifications/tasks'))).toEqual([]);
    } finally {
      for (const stream of [alices, bobs, listen]) stream.close();
    }
  }, 30_000);

  it('cancel reaches the service (DELETE) and the task stays cancelled', async () => {
    const created = await legacy('tools/call', { name: 'slow_compute', arguments: { seconds: 30 }, task: {} }, alice);
    const taskId = created.result?.task?.taskId as string;
    expect((await legacy('tasks/cancel', { taskId }, alice)).result).toMatchObject({ taskId, status: 'cancelled' });
    expect((await legacy('tasks/cancel', { taskId }, alice)).error?.code).toBe(-32602); // already ended
    expect(gw.logs()).toMatch(/event=task_cancelled tool=slow_compute toldService=true/);
  }, 30_000);
});

describe('two replicas behind nginx with Redis: the replica that created a task is killed mid-way', () => {
  const owned: Array<() => Promise<unknown>> = [];
  let nginxUrl: string;
  const replicas: ServerProcess[] = [];

  beforeAll(async () => {
    const redis = await startRedis();
    owned.push(() => redis.kill());
    const tools = await startSampleToolService();
    owned.push(() => tools.stop());
    const config = gatewayConfigFile(
      tools.url,
      `  maxToolTimeoutMillis: ${DEADLINE_MILLIS}
  tasks: { enabled: true, defaultTtlMillis: 60000, maxTtlMillis: 60000, poll: { defaultMillis: 500, minMillis: 100, maxMillis: 1000 }, statusTimeoutMillis: 2000, maxFailedPolls: 5, listPageSize: 100 }
  redis: { url: "${redis.url}" }`,
    );
    replicas.push(...(await Promise.all([spawnGateway(config), spawnGateway(config)])));
    // The replica the test kills has exited already: only one still running is stopped.
    for (const replica of replicas)
      owned.push(async () => (replica.child.exitCode === null && replica.child.signalCode === null ? replica.stop() : undefined));
    const nginx = await startNginx(replicas.map((replica) => new URL((replica as ServerProcess & { match: string[] }).match[1]).host));
    owned.push(() => nginx.stop());
    nginxUrl = nginx.url;
  }, 120_000);
  afterAll(async () => {
    for (const stop of owned.reverse()) await stop().catch(() => undefined);
  }, 60_000);

  it("a task's status change on one replica reaches its caller's stream on the other, over Redis", async () => {
    const [creating, other] = replicas.map((replica) => (replica as ServerProcess & { match: string[] }).match[1]);
    const stream = await openStream(other, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    });
    try {
      const created = await fetch(creating, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'slow_compute', arguments: { seconds: 1 }, task: {} },
        }),
      });
      const taskId = ((await created.json()) as Reply).result?.task?.taskId as string;
      const told = await stream.next(
        (m) => m.method === 'notifications/tasks/status' && (m.params as { status?: string }).status === 'completed',
      );
      expect(told.params).toMatchObject({ taskId, status: 'completed' });
    } finally {
      stream.close();
    }
  }, 30_000);

  it('the task is still read, and its result got, through the other replica', async () => {
    // Tasks of earlier cases were created too: the creator is the replica that logs one more.
    const createdBefore = replicas.map((replica) => replica.output().split('event=task_created').length);
    const created = await postModern(nginxUrl, 'tools/call', {
      name: 'slow_compute',
      arguments: { seconds: JOB_SECONDS, label: 'survivor' },
    });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result?.taskId as string;
    // The creating replica polls the job on its own; it is killed (no drain) a second into the job.
    const createdHere = (replica: ServerProcess, i: number) => replica.output().split('event=task_created').length > createdBefore[i];
    await until(() => replicas.some(createdHere), 'a replica logged task_created');
    const creator = replicas.find(createdHere) as ServerProcess;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    creator.child.kill('SIGKILL');

    let last: Reply | undefined;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      last = await postModern(nginxUrl, 'tasks/get', { taskId }).catch(() => undefined);
      if (last?.result?.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(last?.result).toMatchObject({ taskId, status: 'completed', resultType: 'complete' });
    expect(resultText(last?.result?.result)).toBe(`computed survivor in ${JOB_SECONDS} s`);
    const survivor = replicas.find((replica) => replica !== creator) as ServerProcess;
    expect(survivor.output()).toMatch(/event=task_ended tool=slow_compute status=completed/);
  }, 60_000);
});

describe("an MCP server's tasks through a federating gateway, both eras, with caller auth", () => {
  // The MCP server is a back gateway serving the sample service's long tools as tasks (both eras); the front
  // federates it twice, spoken to at 2026-07-28 (`fed_`) and at 2025-11-25 (`old_`).
  let issuer: TokenIssuer;
  let tools: SampleToolService;
  let back: TestGateway;
  let front: TestGateway;
  let alice: Record<string, string>;
  let bob: Record<string, string>;

  beforeAll(async () => {
    issuer = await startTokenIssuer(AUDIENCE);
    tools = await startSampleToolService();
    back = await startTestGateway(tools.url, tasksOn);
    front = await startTestGateway(tools.url, (config) => {
      tasksOn(config);
      authOn(config, issuer);
      config.mcp.bundles = [
        { name: 'fed', namePrefix: 'fed_', mcpServer: { url: back.url } },
        { name: 'old', namePrefix: 'old_', mcpServer: { url: back.url, era: '2025' } },
      ];
    });
    [alice, bob] = await aliceAndBob(issuer);
  }, 60_000);
  afterAll(async () => {
    await front?.stop();
    await back?.stop();
    await tools?.stop();
    await issuer?.close();
  });

  const legacy = async (method: string, params: Record<string, unknown>, as: Record<string, string>): Promise<Reply> =>
    (await (await front.post({ jsonrpc: '2.0', id: 7, method, params }, as)).json()) as Reply;
  const modernAs = async (method: string, params: Record<string, unknown>, as: Record<string, string>): Promise<Reply> => {
    const { body, headers } = modern(method, params, true);
    return (await (await front.post(body, { ...as, ...headers })).json()) as Reply;
  };

  for (const prefix of ['fed_', 'old_']) {
    it(`a 2025-11-25 caller's task of ${prefix}slow_compute: its result through the gateway, another subject refused`, async () => {
      const created = await legacy(
        'tools/call',
        { name: `${prefix}slow_compute`, arguments: { seconds: 1, label: prefix }, task: {} },
        alice,
      );
      expect(created.result?.task).toMatchObject({ status: 'working' });
      const taskId = created.result?.task?.taskId as string;
      for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result'])
        expect({ method, error: (await legacy(method, { taskId }, bob)).error?.code }).toEqual({ method, error: -32602 });
      const result = await legacy('tasks/result', { taskId }, alice);
      expect(resultText(result.result)).toBe(`computed ${prefix} in 1 s`);
      expect(result.result?._meta).toMatchObject({ 'io.modelcontextprotocol/related-task': { taskId } });
      expect((await legacy('tasks/get', { taskId }, alice)).result).toMatchObject({ taskId, status: 'completed' });
    }, 30_000);

    it(`a 2026-07-28 caller's task of ${prefix}slow_compute: polled to its inlined result; cancel reaches the tool service`, async () => {
      const created = await modernAs('tools/call', { name: `${prefix}slow_compute`, arguments: { seconds: 1, label: prefix } }, alice);
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.result?.taskId as string;
      expect((await modernAs('tasks/get', { taskId }, bob)).error?.code).toBe(-32602);
      let last = await modernAs('tasks/get', { taskId }, alice);
      for (const end = Date.now() + 10_000; last.result?.status === 'working' && Date.now() < end;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        last = await modernAs('tasks/get', { taskId }, alice);
      }
      expect(last.result).toMatchObject({ taskId, status: 'completed' });
      expect(resultText(last.result?.result)).toBe(`computed ${prefix} in 1 s`);

      // The server (the back gateway) cancels its task, and tells the tool service (DELETE).
      const cancelledBefore = back.logs().split('event=task_cancelled tool=slow_compute toldService=true').length;
      const long = await modernAs('tools/call', { name: `${prefix}slow_compute`, arguments: { seconds: 30 } }, alice);
      expect((await modernAs('tasks/cancel', { taskId: long.result?.taskId as string }, bob)).error?.code).toBe(-32602);
      expect((await modernAs('tasks/cancel', { taskId: long.result?.taskId as string }, alice)).result).toMatchObject({
        resultType: 'complete',
      });
      expect(back.logs().split('event=task_cancelled tool=slow_compute toldService=true').length).toBe(cancelledBefore + 1);
    }, 30_000);
  }
});
