import type { ToolCallOutcome } from '../call/tool-call-outcome';
import { testCall } from '../test-support/intercepted-calls';
import { ALLOW, type Interceptor, type Verdict } from './interceptor';
import { InterceptorChain } from './interceptor-chain';

const RESULT: ToolCallOutcome = {
  kind: 'result',
  result: { content: [{ type: 'text', text: 'done', _meta: { searchTime: 1 } }], isError: false },
};

function interceptor(name: string, verdict: () => Verdict | Promise<Verdict>, more: Partial<Interceptor> = {}): Interceptor {
  return { name, mode: 'enforce', failOpen: false, timeoutMs: 1000, request: verdict, ...more };
}
const deny = (): Verdict => ({ kind: 'deny', reason: 'not today' });
const fail = (): Verdict => {
  throw new Error('guardrail down');
};

/** The chain around a tool that records what it was called with. */
async function run(chain: InterceptorChain, args: Record<string, unknown> = { q: 'x' }) {
  const calls: Record<string, unknown>[] = [];
  const outcome = await chain.around(testCall(args), async (checked) => {
    calls.push(checked);
    return RESULT;
  });
  const text = outcome.kind === 'result' ? (outcome.result.content[0] as { text: string }).text : outcome.kind;
  return { calls, text, isError: outcome.kind === 'result' && outcome.result.isError === true };
}

describe('InterceptorChain (SEP-2624 chain semantics)', () => {
  it('an enforce denial stops the call: the tool gets nothing, the caller a tool error naming the interceptor and its reason', async () => {
    const { calls, text, isError } = await run(new InterceptorChain([interceptor('first', () => ALLOW), interceptor('guard', deny)]));
    expect(calls).toEqual([]);
    expect(isError).toBe(true);
    expect(text).toBe('Tool echo was refused by interceptor guard: not today [gateway.interceptor_denied]');
  });

  it('an audit denial is recorded as would-deny and the call goes on', async () => {
    const chain = new InterceptorChain([interceptor('watch', deny, { mode: 'audit' })]);
    expect((await chain.request(testCall({}))).decisions.map((d) => [d.interceptor, d.outcome, d.reason])).toEqual([
      ['watch', 'would-deny', 'not today'],
    ]);
    expect(await run(chain)).toMatchObject({ calls: [{ q: 'x' }], text: 'done', isError: false });
  });

  it('a failure refuses the call unless the interceptor fails open or only audits', async () => {
    const closed = await run(new InterceptorChain([interceptor('strict', fail)]));
    expect(closed.calls).toEqual([]);
    expect(closed.text).toBe(
      'Tool echo was refused by interceptor strict: it failed (guardrail down) and does not fail open (failOpen: false) [gateway.interceptor_failed]',
    );
    expect((await run(new InterceptorChain([interceptor('lenient', fail, { failOpen: true })]))).calls).toEqual([{ q: 'x' }]);
    expect((await run(new InterceptorChain([interceptor('watch', fail, { mode: 'audit' })]))).calls).toEqual([{ q: 'x' }]);
  });

  it('a judge whose promise rejects (a webhook past its timeoutMs) has failed: failOpen decides, both ways', async () => {
    const late = () => Promise.reject(new Error('no answer within 20 ms (timeoutMs)'));
    const closed = await run(new InterceptorChain([interceptor('slow', late)]));
    expect(closed.text).toContain('it failed (no answer within 20 ms (timeoutMs))');
    expect(closed.calls).toEqual([]);
    expect((await run(new InterceptorChain([interceptor('slow', late, { failOpen: true })]))).calls).toEqual([{ q: 'x' }]);
  });

  it('each request judge sees the arguments the ones before it left; an audit change is not applied', async () => {
    const seen: unknown[] = [];
    const chain = new InterceptorChain([
      interceptor('rewrite', () => ({ kind: 'modify', args: { q: 'safe' } })),
      interceptor('shadow', () => ({ kind: 'modify', args: { q: 'ignored' } }), { mode: 'audit' }),
      { ...interceptor('look', () => ALLOW), request: (call) => (seen.push(call.args), ALLOW) },
    ]);
    expect((await run(chain)).calls).toEqual([{ q: 'safe' }]);
    expect(seen).toEqual([{ q: 'safe' }]);
    expect((await chain.request(testCall({ q: 'x' }))).decisions.map((d) => d.outcome)).toEqual(['modified', 'would-modify', 'allow']);
  });

  it('response judges replace or withhold the result', async () => {
    const replaced = { content: [{ type: 'text', text: 'clean', _meta: { searchTime: 0 } }], isError: false } as const;
    const rewriting = new InterceptorChain([
      { ...interceptor('clean', () => ALLOW), request: undefined, response: () => ({ kind: 'modify', result: replaced }) },
    ]);
    expect((await run(rewriting)).text).toBe('clean');
    const withholding = new InterceptorChain([{ ...interceptor('hold', () => ALLOW), request: undefined, response: deny }]);
    expect(await run(withholding)).toMatchObject({ calls: [{ q: 'x' }], isError: true });
  });

  it('a modification of the wrong phase is a failure, not applied', async () => {
    const wrong = new InterceptorChain([
      { ...interceptor('odd', () => ALLOW), request: undefined, response: () => ({ kind: 'modify', args: {} }) },
    ]);
    expect((await run(wrong)).text).toContain('it answered a modified arguments on the response');
  });
});
