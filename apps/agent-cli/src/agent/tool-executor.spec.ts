import type { SideEffects, Tool, ToolResult } from '../tools/tool';
import { ToolRegistry } from '../tools/tool-registry';
import { type ApprovalRequest, type Approver, FLAG_APPROVER, NON_INTERACTIVE_APPROVER } from './approval/approver';
import type { SideEffectCap } from './approval/side-effect-cap';
import type { HookDecision, ToolUseHooks } from './hooks/tool-use-hooks';
import { type ToolExecutionEvent, ToolExecutor } from './tool-executor';

/** A tool that records its runs; only the declaration differs between a "built-in" and an "MCP" one. */
function recordingTool(name: string, sideEffects: SideEffects): Tool & { runs: number } {
  return {
    name,
    description: '',
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    sideEffects,
    runs: 0,
    checkArguments: (args) => (args.n !== undefined && typeof args.n !== 'number' ? '"n" must be a number' : undefined),
    async execute(): Promise<ToolResult> {
      this.runs += 1;
      return { isError: false, content: [{ type: 'text', text: `${name} ran` }] };
    },
  };
}

const READ_ONLY: SideEffects = { level: 'read-only', destructive: false, basis: 'declared' };
const MUTATING: SideEffects = { level: 'mutating', destructive: false, basis: 'declared' };
const DESTRUCTIVE_CLAIM: SideEffects = { level: 'mutating', destructive: true, basis: 'server-claim' };

function hooksDeciding(decision: HookDecision | undefined, reason?: string): ToolUseHooks & { post: number } {
  return {
    post: 0,
    preToolUse: async () => ({ decision, reason }),
    async postToolUse() {
      this.post += 1;
    },
  };
}

function setUp(options: { cap?: SideEffectCap; approver?: Approver; hooks?: ToolUseHooks } = {}) {
  const registry = new ToolRegistry();
  const tools = {
    read: recordingTool('Read', READ_ONLY),
    write: recordingTool('Write', MUTATING),
    remote: recordingTool('mcp__s__write', MUTATING),
    wipe: recordingTool('mcp__s__wipe', DESTRUCTIVE_CLAIM),
  };
  Object.values(tools).forEach((tool) => registry.register(tool));
  const events: ToolExecutionEvent[] = [];
  const questions: ApprovalRequest[] = [];
  const approver = options.approver ?? NON_INTERACTIVE_APPROVER;
  const executor = new ToolExecutor(registry, {
    cap: options.cap,
    hooks: options.hooks,
    approver: { approve: (request) => (questions.push(request), approver.approve(request)) },
    onEvent: (event) => events.push(event),
  });
  const call = (name: string, args: Record<string, unknown> = {}) => executor.execute({ id: 'c1', name, args });
  return { tools, events, questions, call };
}

describe('ToolExecutor', () => {
  it('treats a built-in and an MCP tool with the same declaration identically', async () => {
    for (const approver of [NON_INTERACTIVE_APPROVER, FLAG_APPROVER]) {
      const { tools, call, events } = setUp({ approver });
      const builtin = await call('Write');
      const remote = await call('mcp__s__write');
      expect(builtin.isError).toBe(remote.isError);
      expect(tools.write.runs).toBe(tools.remote.runs);
      const verdicts = events.flatMap((e) => (e.type === 'approval' ? [{ allowed: e.verdict.allowed, by: e.verdict.by }] : []));
      expect(verdicts[0]).toEqual(verdicts[1]);
    }
  });

  it('runs read-only calls without asking and asks about mutating and destructive ones', async () => {
    const { tools, call, questions } = setUp({ approver: FLAG_APPROVER });
    await call('Read');
    await call('Write');
    await call('mcp__s__wipe');
    expect(tools.read.runs + tools.write.runs + tools.wipe.runs).toBe(3);
    expect(questions.map((q) => [q.call.name, q.reason])).toEqual([
      ['Write', 'mutating'],
      ['mcp__s__wipe', 'destructive'],
    ]);
  });

  it('denies what needs approval when nobody can answer, saying how to allow it', async () => {
    const { tools, call, events } = setUp();
    const result = await call('Write');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('--yes');
    expect(tools.write.runs).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'approval', 'tool_result']);
  });

  it.each([
    ['read-only', ['Read'], ['Write', 'mcp__s__write', 'mcp__s__wipe']],
    ['mutating', ['Read', 'Write', 'mcp__s__write'], ['mcp__s__wipe']],
    ['destructive', ['Read', 'Write', 'mcp__s__write', 'mcp__s__wipe'], []],
  ] as const)(
    '--max-side-effect %s refuses what is above it without asking, even with --yes and a hook allowing it',
    async (cap, runs, refused) => {
      const { tools, call, questions } = setUp({ cap, approver: FLAG_APPROVER, hooks: hooksDeciding('allow') });
      for (const name of [...runs, ...refused]) await call(name);
      const byName = new Map(Object.values(tools).map((t) => [t.name, t.runs]));
      for (const name of runs) expect(byName.get(name)).toBe(1);
      for (const name of refused) expect(byName.get(name)).toBe(0);
      expect(questions).toEqual([]);
    },
  );

  it('honours a hook: allow runs without asking, deny refuses with the reason, defer asks even for a read-only call', async () => {
    const allowed = setUp({ hooks: hooksDeciding('allow') });
    expect((await allowed.call('Write')).isError).toBe(false);
    expect(allowed.questions).toEqual([]);

    const denied = setUp({ approver: FLAG_APPROVER, hooks: hooksDeciding('deny', 'policy says no') });
    const refusal = await denied.call('Read');
    expect(refusal).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('policy says no') }] });
    expect(denied.tools.read.runs).toBe(0);

    const deferred = setUp({ hooks: hooksDeciding('defer') });
    expect((await deferred.call('Read')).isError).toBe(true);
    expect(deferred.questions.map((q) => q.reason)).toEqual(['hook-defer']);
    expect(deferred.tools.read.runs).toBe(0);
  });

  it('tells PostToolUse hooks about calls that ran, and only those', async () => {
    const hooks = hooksDeciding(undefined);
    const { call } = setUp({ hooks });
    await call('Read');
    await call('Write'); // denied: nobody to ask
    expect(hooks.post).toBe(1);
  });

  it('refuses bad arguments and unknown tools before anyone is asked', async () => {
    const { tools, call, questions } = setUp({ approver: FLAG_APPROVER });
    expect(await call('Write', { n: 'x' })).toMatchObject({
      isError: true,
      content: [{ text: 'invalid arguments for Write: "n" must be a number' }],
    });
    expect(await call('Nope')).toMatchObject({ isError: true, content: [{ text: 'no tool named "Nope"' }] });
    expect(questions).toEqual([]);
    expect(tools.write.runs).toBe(0);
  });
});
