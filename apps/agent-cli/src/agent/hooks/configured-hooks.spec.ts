import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eventually, pidsWithCommandLine } from '@toolmesh/test-peers/process-table';
import { REPO_ROOT } from '@toolmesh/test-peers/server-process';

import { loadConfig } from '../../config/load-config';
import { TransportClientFactory } from '../../mcp/client-factory';
import type { AgentRuntime } from '../../runtime/agent-runtime';
import { createAgentRuntime } from '../../runtime/runtime-factory';
import { resultText, type Tool, type ToolResult } from '../../tools/tool';
import { type Approver, FLAG_APPROVER, NON_INTERACTIVE_APPROVER } from '../approval/approver';
import type { SideEffectCap } from '../approval/side-effect-cap';
import { type GateVerdict, ToolExecutor } from '../tool-executor';

/**
 * Hooks at their real boundaries: hook files on disk, loaded with the configuration; the real runtime
 * with a real policy MCP server (tools/test/peers/policy-peer.mjs, stdio); an HTTP endpoint on port 0;
 * calls of the built-in Write and Read tools through the ToolExecutor.
 */
const POLICY_PEER = path.join(REPO_ROOT, 'tools/test/peers/policy-peer.mjs');
const SECRET_ARG = 'SECRET-ARG-VALUE-4711';
const SECRET_HEADER = 'SECRET-HEADER-VALUE-0815';
const dir = mkdtempSync(path.join(tmpdir(), 'configured-hooks-'));
const recordFile = path.join(dir, 'record.jsonl');

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/** The http action's endpoint: answers what `endpoint.answer` says and keeps what it received. */
const endpoint = {
  answer: { status: 200, body: '{}' },
  received: [] as Received[],
  server: undefined as Server | undefined,
  url: '',
};

beforeAll(async () => {
  endpoint.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      endpoint.received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(endpoint.answer.status, { 'content-type': 'application/json' }).end(endpoint.answer.body);
    });
  });
  await new Promise<void>((resolve) => endpoint.server?.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(endpoint.server.address() as AddressInfo).port}/hooks/secret-path`;
});
afterAll(() => new Promise<void>((resolve) => endpoint.server?.close(() => resolve())));
beforeEach(() => {
  endpoint.answer = { status: 200, body: '{}' };
  endpoint.received = [];
});

let serial = 0;

interface Setup {
  readonly runtime: AgentRuntime;
  readonly warnings: string[];
  readonly policyName: string;
  call(
    name: string,
    args: Record<string, unknown>,
    gate?: { approver?: Approver; cap?: SideEffectCap },
  ): Promise<{ result: ToolResult; verdict?: GateVerdict }>;
}

/**
 * A runtime whose configuration lists one hook file with these hooks (YAML), and the policy server as
 * "policy". With `blocker`, the server is started through a shell that refuses while that file exists,
 * so a test can keep it down (the agent restarts a server that exits).
 */
async function withHooks(hooksYaml: string, body: (setup: Setup) => Promise<void>, blocker?: string): Promise<void> {
  serial += 1;
  const policyName = `hooks-policy-${process.pid}-${serial}`;
  const hookFile = path.join(dir, `hooks-${serial}.yaml`);
  writeFileSync(hookFile, `name: test-hooks\ndescription: hooks under test\nhooks:\n${hooksYaml}`);
  const configFile = path.join(dir, `agent-${serial}.yaml`);
  const peer = [process.execPath, POLICY_PEER, `--name=${policyName}`, `--record=${recordFile}`];
  const server = blocker
    ? `      command: /bin/sh\n      args: ["-c", ${JSON.stringify(`if [ -e '${blocker}' ]; then exit 1; fi; exec ${peer.map((a) => `'${a}'`).join(' ')}`)}]\n`
    : `      command: ${JSON.stringify(peer[0])}\n      args: [${peer
        .slice(1)
        .map((a) => JSON.stringify(a))
        .join(', ')}]\n`;
  writeFileSync(configFile, `mcp:\n  servers:\n    - name: policy\n${server}hooks: [${path.basename(hookFile)}]\n`);
  const warnings: string[] = [];
  const config = loadConfig(configFile, { HOOK_TOKEN: SECRET_HEADER });
  const runtime = await createAgentRuntime(config, {
    clientFactory: new TransportClientFactory({ name: 'hooks-test', version: '0' }),
    log: { warn: (message) => warnings.push(message) },
    workingDirectory: dir,
  });
  const call: Setup['call'] = async (name, args, gate = {}) => {
    let verdict: GateVerdict | undefined;
    const executor = new ToolExecutor(runtime.tools, {
      approver: gate.approver ?? NON_INTERACTIVE_APPROVER,
      cap: gate.cap,
      hooks: runtime.hooks,
      onEvent: (event) => {
        if (event.type === 'approval') verdict = event.verdict;
      },
    });
    return { result: await executor.execute({ id: 'c1', name, args }), verdict };
  };
  try {
    await body({ runtime, warnings, policyName, call });
  } finally {
    await runtime.close();
  }
}

const decide = (matcher: string, decision: string, reason = '', extra = '') =>
  `  - event: PreToolUse\n    matcher: "${matcher}"\n    action:\n      type: mcp_tool\n      server: policy\n      tool: decide\n      args: { decision: ${decision}, reason: "${reason}"${extra} }\n`;
const httpHook = (matcher: string, extra = '') =>
  `  - event: PreToolUse\n    matcher: "${matcher}"\n    action:\n      type: http\n      url: ${endpoint.url}\n      headers: { Authorization: "Bearer \${HOOK_TOKEN}" }\n${extra}`;

function registered(runtime: AgentRuntime, name: string): Tool {
  const tool = runtime.tools.get(name);
  if (!tool) throw new Error(`${name} is not registered`);
  return tool;
}

let fileSerial = 0;
/** A Write call of a new file; `written()` proves whether it ran. */
function writeCall() {
  fileSerial += 1;
  const file = path.join(dir, `written-${fileSerial}.txt`);
  return { args: { path: file, content: SECRET_ARG }, written: () => existsSync(file) };
}
const readme = path.join(dir, 'readme.txt');
writeFileSync(readme, 'the readme text');
const readCall = { path: readme };

describe('hook decisions, through the tool executor and a real policy server', () => {
  it('without hooks: a mutating Write is denied without a terminal, a read-only Read runs', async () => {
    const configFile = path.join(dir, 'no-hooks.yaml');
    writeFileSync(configFile, 'mcp:\n  servers: []\n');
    const runtime = await createAgentRuntime(loadConfig(configFile, {}), {
      clientFactory: new TransportClientFactory({ name: 'hooks-test', version: '0' }),
      log: { warn: () => undefined },
      workingDirectory: dir,
    });
    try {
      const executor = new ToolExecutor(runtime.tools, { approver: NON_INTERACTIVE_APPROVER, hooks: runtime.hooks });
      const write = writeCall();
      expect((await executor.execute({ id: 'c1', name: 'Write', args: write.args })).isError).toBe(true);
      expect(write.written()).toBe(false);
      expect(resultText(await executor.execute({ id: 'c2', name: 'Read', args: readCall }))).toContain('the readme text');
    } finally {
      await runtime.close();
    }
  });

  it('allow: the mutating Write runs without anyone to ask', async () => {
    await withHooks(decide('Write', 'allow'), async ({ call, warnings }) => {
      const write = writeCall();
      const { result, verdict } = await call('Write', write.args);
      expect(result.isError).toBe(false);
      expect(verdict).toEqual({ allowed: true, by: 'hook' });
      expect(write.written()).toBe(true);
      expect(warnings).toEqual([]);
    });
  });

  it("deny: the read-only Read is refused with the hook's reason, even with --yes", async () => {
    await withHooks(decide('Re*', 'deny', 'reads are audited today'), async ({ call }) => {
      const { result, verdict } = await call('Read', readCall, { approver: FLAG_APPROVER });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toBe('a hook denied Read: reads are audited today');
      expect(verdict).toMatchObject({ allowed: false, by: 'hook' });
    });
  });

  it('deny: a denied Write did not run', async () => {
    await withHooks(decide('*', 'deny', 'no writes'), async ({ call }) => {
      const write = writeCall();
      expect((await call('Write', write.args, { approver: FLAG_APPROVER })).result.isError).toBe(true);
      expect(write.written()).toBe(false);
    });
  });

  it('defer: the read-only Read needs a person: refused without a terminal, run with --yes', async () => {
    await withHooks(decide('Read', 'defer', 'ask first'), async ({ call }) => {
      const refused = await call('Read', readCall);
      expect(refused.verdict).toMatchObject({ allowed: false, by: 'non-interactive' });
      expect(resultText(refused.result)).toContain('a hook deferred the decision to a person');

      const approved = await call('Read', readCall, { approver: FLAG_APPROVER });
      expect(approved.verdict).toEqual({ allowed: true, by: 'flag' });
      expect(resultText(approved.result)).toContain('the readme text');
    });
  });

  it('the side-effect cap still refuses what a hook allows', async () => {
    await withHooks(decide('Write', 'allow'), async ({ call }) => {
      const write = writeCall();
      const { verdict } = await call('Write', write.args, { cap: 'read-only', approver: FLAG_APPROVER });
      expect(verdict).toMatchObject({ allowed: false, by: 'cap' });
      expect(write.written()).toBe(false);
    });
  });

  it('reads a decision from the text of a tool without structuredContent, and ignores plain text (a side-effect-only tool)', async () => {
    await withHooks(
      decide('Read', 'deny', 'as text', ', reply: text') + decide('Write', 'deny', 'unused', ', reply: plain'),
      async ({ call, warnings }) => {
        expect(resultText((await call('Read', readCall)).result)).toBe('a hook denied Read: as text');
        expect((await call('Write', writeCall().args, { approver: FLAG_APPROVER })).verdict).toEqual({ allowed: true, by: 'flag' });
        expect(warnings).toEqual([]);
      },
    );
  });

  it("combines hooks: deny beats defer beats allow, and the winners' reasons are joined in order", async () => {
    const hooks = decide('*', 'allow', 'fine') + decide('*', 'deny', 'first no') + decide('*', 'defer') + decide('*', 'deny', 'second no');
    await withHooks(hooks, async ({ call }) => {
      expect(resultText((await call('Read', readCall, { approver: FLAG_APPROVER })).result)).toBe(
        'a hook denied Read: first no; second no',
      );
    });
  });

  it("http: the endpoint's allow and deny are honoured; it gets the event as JSON with the configured header", async () => {
    await withHooks(httpHook('Write'), async ({ call, warnings }) => {
      endpoint.answer = { status: 200, body: JSON.stringify({ decision: 'allow' }) };
      const allowed = writeCall();
      expect((await call('Write', allowed.args)).verdict).toEqual({ allowed: true, by: 'hook' });
      expect(allowed.written()).toBe(true);

      endpoint.answer = { status: 200, body: JSON.stringify({ decision: 'deny', reason: 'the endpoint says no' }) };
      const denied = writeCall();
      const { result } = await call('Write', denied.args, { approver: FLAG_APPROVER });
      expect(resultText(result)).toBe('a hook denied Write: the endpoint says no');
      expect(denied.written()).toBe(false);

      expect(endpoint.received[0].headers.authorization).toBe(`Bearer ${SECRET_HEADER}`);
      expect(endpoint.received[0].headers['content-type']).toBe('application/json');
      expect(endpoint.received[0].body).toEqual({ event: 'PreToolUse', tool: { name: 'Write' }, args: allowed.args });
      expect(warnings).toEqual([]);
    });
  });

  it('http: renders a body template: single placeholders as JSON values, others as text, missing paths as null or empty', async () => {
    const body = `    timeoutMs: 5000\n    action:\n      type: http\n      url: ${endpoint.url}\n      method: PUT\n      body:\n        summary: "{{event}} of {{tool.name}} on {{args.path}}{{args.nope}}"\n        args: "{{args}}"\n        size: "{{args.meta.size}}"\n        first: "{{args.tags.0}}"\n        missing: "{{args.nope.deeper}}"\n        fixed: [1, true, null, "{{args.meta}}"]\n`;
    await withHooks(`  - event: PreToolUse\n    matcher: "*"\n${body}`, async ({ runtime }) => {
      const args = { path: 'a.txt', meta: { size: 3, ok: true }, tags: ['x', 'y'] };
      await runtime.hooks.preToolUse({ id: 'c', name: 'Write', args }, registered(runtime, 'Write'));
      expect(endpoint.received).toEqual([
        expect.objectContaining({
          body: {
            summary: 'PreToolUse of Write on a.txt',
            args,
            size: 3,
            first: 'x',
            missing: null,
            fixed: [1, true, null, { size: 3, ok: true }],
          },
        }),
      ]);
    });
  });

  it('PostToolUse: the hook sees the result, cannot change it, and its MCP call renders the templated arguments', async () => {
    const post =
      `  - event: PostToolUse\n    matcher: Write\n    action:\n      type: mcp_tool\n      server: policy\n      tool: record\n      args: { tool: "{{tool.name}}", file: "{{args.path}}", failed: "{{result.isError}}", said: "{{result.text}}" }\n` +
      decide('Write', 'deny', 'too late').replace('PreToolUse', 'PostToolUse');
    await withHooks(post, async ({ call }) => {
      const write = writeCall();
      const { result } = await call('Write', write.args, { approver: FLAG_APPROVER });
      expect(result.isError).toBe(false);
      expect(write.written()).toBe(true);
      const recorded = readFileSync(recordFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(recorded.at(-1)).toEqual({ tool: 'Write', file: write.args.path, failed: false, said: resultText(result) });
    });
  });
});

describe('fail-soft: a hook that cannot decide is a warning, and the call goes on as without hooks', () => {
  /** The warnings name the hook, never argument values or header values. */
  function expectPrivate(warnings: readonly string[]): void {
    for (const warning of warnings) {
      expect(warning).not.toContain(SECRET_ARG);
      expect(warning).not.toContain(SECRET_HEADER);
      expect(warning).not.toContain('secret-path');
    }
  }

  it('an unknown server', async () => {
    const hook = decide('Write', 'deny', 'x').replace('server: policy', 'server: nowhere');
    await withHooks(hook, async ({ call, warnings }) => {
      const write = writeCall();
      expect((await call('Write', write.args, { approver: FLAG_APPROVER })).verdict).toEqual({ allowed: true, by: 'flag' });
      expect(write.written()).toBe(true);
      expect(warnings).toEqual([
        'hook test-hooks#0 (PreToolUse mcp_tool nowhere/decide) on Write: MCP server "nowhere" is not configured or not connected; going on as if it had not decided',
      ]);
    });
  });

  it("a transport failure: the policy server's process is gone (and kept from restarting)", async () => {
    const blocker = path.join(dir, `blocked-${serial + 1}`);
    await withHooks(
      decide('Read', 'deny', 'x'),
      async ({ runtime, call, warnings, policyName }) => {
        const [pid] = pidsWithCommandLine(`--name=${policyName}`);
        writeFileSync(blocker, '');
        process.kill(pid, 'SIGKILL');
        expect(await eventually(() => runtime.mcp.status[0].state === 'down' && runtime.mcp.client('policy') === undefined)).toBe(true);
        expect(resultText((await call('Read', readCall)).result)).toContain('the readme text');
        expect(warnings.filter((w) => w.startsWith('hook '))).toEqual([
          expect.stringContaining('MCP server "policy" is not configured or not connected'),
        ]);
      },
      blocker,
    );
  });

  it('a transport failure: the HTTP endpoint refuses connections, or answers 500', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hook?token=${SECRET_HEADER}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const hooks = httpHook('Read').replace(endpoint.url, refusedUrl) + httpHook('Write');
    await withHooks(hooks, async ({ call, warnings }) => {
      expect(resultText((await call('Read', { path: readme, limit: 10 })).result)).toContain('the readme text');
      endpoint.answer = { status: 500, body: JSON.stringify({ decision: 'deny', reason: SECRET_ARG }) };
      const write = writeCall();
      await call('Write', write.args, { approver: FLAG_APPROVER });
      expect(write.written()).toBe(true);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^hook test-hooks#0 \(PreToolUse http POST http:\/\/127\.0\.0\.1:\d+\) on Read: the request failed: .*ECONNREFUSED/,
        ),
        expect.stringMatching(/^hook test-hooks#1 .* on Write: the endpoint answered HTTP 500; going on as if it had not decided$/),
      ]);
      expectPrivate(warnings);
    });
  });

  it('an isError result, which never reaches the log (it repeats the arguments)', async () => {
    await withHooks(decide('Write', 'deny', '{{args.content}}', ', reply: error, echo: "{{args}}"'), async ({ call, warnings }) => {
      const write = writeCall();
      await call('Write', write.args, { approver: FLAG_APPROVER });
      expect(write.written()).toBe(true);
      expect(warnings).toEqual([expect.stringContaining('on Write: "decide" returned an error result')]);
      expectPrivate(warnings);
    });
  });

  it('a reply that is not JSON, and a decision that is not allow, deny or defer', async () => {
    const hooks = httpHook('Read') + decide('Read', 'deny', 'x', ', reply: bad-json') + decide('Read', 'maybe');
    await withHooks(hooks, async ({ call, warnings }) => {
      endpoint.answer = { status: 200, body: `ok ${SECRET_ARG}` };
      expect(resultText((await call('Read', readCall)).result)).toContain('the readme text');
      expect(warnings).toEqual([
        expect.stringMatching(
          /^hook test-hooks#0 \(PreToolUse http POST http:\/\/127\.0\.0\.1:\d+\) on Read: replied with a body that is not JSON;/,
        ),
        expect.stringContaining('test-hooks#1 (PreToolUse mcp_tool policy/decide) on Read: replied with text that is not JSON'),
        expect.stringContaining(
          'test-hooks#2 (PreToolUse mcp_tool policy/decide) on Read: replied with a "decision" that is not allow, deny or defer',
        ),
      ]);
      expectPrivate(warnings);
    });
  });

  it('a hook still running when the call is aborted gives up at once', async () => {
    // The hook's own timeout is far beyond Jest's: only the abort can end this call in time.
    const hook = `  - event: PreToolUse\n    matcher: Read\n    timeoutMs: 600000\n    action: { type: mcp_tool, server: policy, tool: slow, args: { ms: 600000 } }\n`;
    await withHooks(hook, async ({ runtime, warnings }) => {
      const controller = new AbortController();
      const verdict = runtime.hooks.preToolUse({ id: 'c', name: 'Read', args: readCall }, registered(runtime, 'Read'), controller.signal);
      controller.abort();
      expect(await verdict).toEqual({});
      expect(warnings).toEqual([expect.stringContaining('on Read: cancelled with the call')]);
    });
  });

  it('a hook that does not answer within its timeoutMs', async () => {
    const hook = `  - event: PreToolUse\n    matcher: Read\n    timeoutMs: 200\n    action: { type: mcp_tool, server: policy, tool: slow, args: { ms: 20000 } }\n`;
    await withHooks(hook, async ({ call, warnings }) => {
      expect(resultText((await call('Read', readCall)).result)).toContain('the readme text');
      expect(warnings).toEqual([expect.stringContaining('on Read: gave no answer within 200 ms')]);
    });
  });
});
