import path from 'node:path';

import { NotificationFanout } from '@toolmesh/protocol';
import { EVERYTHING_BIN } from '@toolmesh/test-peers/mcp-servers';
import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { FLAG_APPROVER, NON_INTERACTIVE_APPROVER } from '../agent/approval/approver';
import { ToolExecutor } from '../agent/tool-executor';
import { TransportClientFactory } from '../mcp/client-factory';
import type { StdioServerConfig } from '../mcp/server-config';
import { resultText, type ToolResult } from '../tools/tool';
import type { AgentRuntime } from './agent-runtime';
import { createRewake } from './rewake';
import { createAgentRuntime } from './runtime-factory';

/**
 * Rewake through the real runtime (SPEC A7): a real SDK-built MCP server over stdio sends notifications
 * after its tool has answered; the runtime's bridge maps them, and WaitForEvent, called through the
 * ToolExecutor like any model tool call, wakes with the event.
 */
const PEER = path.join(REPO_ROOT, 'tools/test/peers/notifying-peer.mjs');
const NAME = `rewake-${process.pid}`;
const peer: StdioServerConfig = {
  name: 'jobs',
  transport: 'stdio',
  command: process.execPath,
  args: [PEER, `--name=${NAME}`],
  env: {},
  requestTimeoutMs: 10_000,
  annotationTrust: 'trust', // schedule_notification claims read-only, so no approval is needed
};

let runtime: AgentRuntime;
let executor: ToolExecutor;
let callId = 0;
const call = (name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> =>
  executor.execute({ id: `call-${++callId}`, name, args }, signal);
const schedule = (args: Record<string, unknown>) => call('mcp__jobs__schedule_notification', { delayMs: 0, ...args });
const waitForEvent = (args: Record<string, unknown>, signal?: AbortSignal) => call('WaitForEvent', args, signal);

beforeAll(async () => {
  runtime = await createAgentRuntime(
    {
      file: 'x',
      servers: [peer],
      rewake: { rules: [{ method: 'notifications/jobs/*', type: 'job.done' }], defaults: true, bufferSize: 10 },
    },
    {
      clientFactory: new TransportClientFactory({ name: 'rewake-test', version: '0' }),
      log: { warn: () => undefined },
      workingDirectory: process.cwd(),
    },
  );
  executor = new ToolExecutor(runtime.tools, { approver: NON_INTERACTIVE_APPROVER });
  expect(runtime.servers).toEqual([expect.objectContaining({ name: 'jobs', state: 'connected' })]);
});
afterAll(() => runtime?.close());

describe('WaitForEvent in a real runtime', () => {
  it('sleeps until the server sends a notification later, then returns the event as JSON text and structured content', async () => {
    const waiting = waitForEvent({ filter: { server: 'jobs', type: 'resource.updated' }, timeout_ms: 20_000 });
    expect(await eventually(() => runtime.events.waiting === 1)).toBe(true);

    const scheduled = await schedule({ delayMs: 200, kind: 'resource', uri: 'file:///reports/q3.csv' });
    expect(scheduled.isError).toBe(false);
    const result = await waiting;

    expect(result.isError).toBe(false);
    const event = JSON.parse(resultText(result));
    expect(event).toEqual({
      id: expect.stringMatching(/^evt-\d+$/),
      server: 'jobs',
      type: 'resource.updated',
      method: 'notifications/resources/updated',
      summary: { uri: 'file:///reports/q3.csv' },
      receivedAt: expect.any(String),
    });
    expect(result.structuredContent).toEqual({ event });
  });

  it('delivers an event that arrived before it was called (the buffer), and a custom method by a configured rule', async () => {
    await schedule({ kind: 'custom', method: 'notifications/jobs/build', data: 'build 42 finished' });
    expect(await eventually(() => runtime.events.pending === 1)).toBe(true);

    const result = await waitForEvent({ timeout_ms: 0 });

    expect(result.isError).toBe(false);
    expect(JSON.parse(resultText(result))).toMatchObject({
      type: 'job.done',
      method: 'notifications/jobs/build',
      summary: { data: 'build 42 finished' },
    });
    expect(runtime.events.pending).toBe(0);
  });

  it('maps a log message by the default rule, and a filter leaves non-matching events for later', async () => {
    await schedule({ kind: 'log', level: 'warning', data: 'disk almost full' });
    await schedule({ kind: 'resource', uri: 'file:///tmp/other' });
    expect(await eventually(() => runtime.events.pending === 2)).toBe(true);

    const log = await waitForEvent({ filter: { type: 'log' }, timeout_ms: 0 });
    const resource = await waitForEvent({ filter: { uri_prefix: 'file:///tmp/' }, timeout_ms: 0 });

    expect(JSON.parse(resultText(log))).toMatchObject({
      type: 'log',
      summary: { level: 'warning', logger: 'peer', data: 'disk almost full' },
    });
    expect(JSON.parse(resultText(resource))).toMatchObject({ type: 'resource.updated', summary: { uri: 'file:///tmp/other' } });
  });

  it('returns a clean, non-error timeout result when no event arrives', async () => {
    const result = await waitForEvent({ filter: { server: 'jobs' }, timeout_ms: 200 });

    expect(result).toEqual({
      isError: false,
      content: [{ type: 'text', text: 'no event arrived within 200 ms' }],
      structuredContent: { event: null, timedOut: true, timeout_ms: 200 },
    });
    expect(runtime.events.waiting).toBe(0);
  });

  it("ends cleanly when the executor's signal is aborted (Ctrl-C)", async () => {
    const controller = new AbortController();
    const waiting = waitForEvent({ timeout_ms: 600_000 }, controller.signal);
    expect(await eventually(() => runtime.events.waiting === 1)).toBe(true);

    controller.abort();

    expect(await waiting).toEqual({ isError: true, content: [{ type: 'text', text: 'WaitForEvent: cancelled before an event arrived' }] });
    expect(runtime.events.waiting).toBe(0);
  });

  it('refuses bad arguments before waiting', async () => {
    const result = await waitForEvent({ timeout_ms: 600_001, filter: { host: 'x' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^invalid arguments for WaitForEvent: /);
  });

  it('is ended by closing the runtime, which also stops the server', async () => {
    const waiting = waitForEvent({ timeout_ms: 600_000 });
    expect(await eventually(() => runtime.events.waiting === 1)).toBe(true);

    await runtime.close();

    expect(await waiting).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'WaitForEvent: the agent is shutting down; no more events will arrive' }],
    });
    expect(await eventually(() => pidsWithCommandLine(`--name=${NAME}`).length === 0)).toBe(true);
  });
});

describe('WaitForEvent with server-everything from npm', () => {
  it('wakes with a log message the server sends on its own once simulated logging is on', async () => {
    const everything = await createAgentRuntime(
      {
        file: 'x',
        servers: [
          {
            name: 'everything',
            transport: 'stdio',
            command: EVERYTHING_BIN,
            args: ['stdio'],
            env: {},
            requestTimeoutMs: 20_000,
            annotationTrust: 'ignore',
          },
        ],
      },
      {
        clientFactory: new TransportClientFactory({ name: 'rewake-test', version: '0' }),
        log: { warn: () => undefined },
        workingDirectory: process.cwd(),
      },
    );
    try {
      const run = new ToolExecutor(everything.tools, { approver: FLAG_APPROVER });
      expect((await run.execute({ id: '1', name: 'mcp__everything__toggle-simulated-logging', args: {} })).isError).toBe(false);

      const result = await run.execute({
        id: '2',
        name: 'WaitForEvent',
        args: { filter: { server: 'everything', type: 'log' }, timeout_ms: 20_000 },
      });

      expect(result.isError).toBe(false);
      expect(JSON.parse(resultText(result))).toMatchObject({
        server: 'everything',
        type: 'log',
        method: 'notifications/message',
        summary: {
          level: expect.stringMatching(/^(debug|info|notice|warning|error|critical|alert|emergency)$/),
          data: expect.stringMatching(/message/i),
        },
      });
    } finally {
      await everything.close();
    }
  });
});

describe('createRewake', () => {
  it('warns once, not per event, when the buffer overflows, and stops listening when closed', async () => {
    const source = new NotificationFanout(() => undefined);
    const warnings: string[] = [];
    const rewake = createRewake(source, { rules: [], defaults: true, bufferSize: 1 }, (message) => warnings.push(message));
    const update = {
      server: 'jobs',
      notification: { jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri: 'file:///secret-path' } },
      receivedAt: new Date(),
    };
    for (let i = 0; i < 3; i++) source.publish(update);

    expect(rewake.events.dropped).toBe(2);
    expect(warnings).toEqual([expect.stringContaining('1 events are waiting for a WaitForEvent, so the oldest are being dropped')]);
    expect(warnings.join()).not.toContain('secret-path');

    await rewake.closeable.close();
    expect(source.listenerCount).toBe(0);
  });
});
