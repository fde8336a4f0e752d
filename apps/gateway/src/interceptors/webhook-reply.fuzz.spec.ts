import { type SeededRandom, seededRandom } from '@toolmesh/test-peers/seeded-random';

import { testCall } from '../test-support/intercepted-calls';
import { testTool } from '../test-support/test-tool';
import type { Interceptor } from './interceptor';
import { InterceptorChain } from './interceptor-chain';
import { parseWebhookReply } from './webhook-reply';

/**
 * Property (issue 46): whatever a guardrail answers, the reply parser either makes a verdict of it or throws
 * an Error whose message says what is wrong (never a TypeError of ours, never the reply quoted), and the
 * chain then lets `failOpen` decide: the call passes with it, and is refused with a tool error without it.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x2624);
const CASES = Number(process.env.FUZZ_CASES ?? 3_000);
const tool = testTool('echo');
const MARK = 'PLANTED-REPLY-VALUE';

const VALUES: unknown[] = [null, true, 0, -1, 1.5, '', MARK, [], {}, [MARK], { message: MARK }, { message: 7 }, 'validation', 'mutation'];
const KEYS = ['type', 'valid', 'messages', 'modified', 'payload', 'arguments', 'result', 'content', 'isError', 'text', '__proto__'];

function randomValue(random: SeededRandom, depth: number): unknown {
  const roll = random.int(10);
  if (depth > 3 || roll < 5) return random.pick(VALUES);
  if (roll < 7) return Array.from({ length: random.int(3) }, () => randomValue(random, depth + 1));
  return Object.fromEntries(Array.from({ length: random.int(4) }, () => [random.pick(KEYS), randomValue(random, depth + 1)]));
}

/** Replies near the real shapes, each field replaced now and then by something else. */
function randomReply(random: SeededRandom): unknown {
  if (random.int(5) === 0) return randomValue(random, 0);
  const base = random.pick([
    { type: 'validation', valid: false, messages: [{ message: 'no' }] },
    { type: 'mutation', modified: true, payload: { arguments: { q: 1 }, result: { content: [{ type: 'text', text: 'x' }] } } },
  ]) as Record<string, unknown>;
  for (const key of Object.keys(base)) if (random.int(3) === 0) base[key] = randomValue(random, 1);
  return base;
}

describe('webhook reply parser (fuzz)', () => {
  it(`makes a verdict of a reply or says why not, never quoting it, in ${CASES} cases`, () => {
    const random = seededRandom(SEED);
    let refused = 0;
    for (let i = 0; i < CASES; i++) {
      const reply = randomReply(random);
      const phase = random.int(2) === 0 ? 'request' : 'response';
      try {
        const verdict = parseWebhookReply(reply, phase, tool);
        expect(['allow', 'deny', 'modify']).toContain(verdict.kind);
      } catch (error) {
        refused++;
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(/^the guardrail answered /);
        expect((error as Error).message).not.toContain(MARK);
      }
    }
    expect(refused).toBeGreaterThan(CASES / 10);
  });

  it.each([
    [{ type: 'validation', valid: true }, { kind: 'allow' }],
    [
      { type: 'validation', valid: false, messages: [{ message: 'PII in query' }, { message: 'too broad' }] },
      { kind: 'deny', reason: 'PII in query; too broad' },
    ],
    [
      { type: 'validation', valid: false },
      { kind: 'deny', reason: 'denied by the guardrail (no reason given)' },
    ],
    [{ type: 'mutation', modified: false }, { kind: 'allow' }],
    [
      { type: 'mutation', modified: true, payload: { arguments: { q: 'masked' } } },
      { kind: 'modify', args: { q: 'masked' } },
    ],
  ])('reads %j', (reply, verdict) => {
    expect(parseWebhookReply(reply, 'request', tool)).toEqual(verdict);
  });

  it('a malformed reply refuses the call without failOpen and lets it pass with it', async () => {
    const malformed = (failOpen: boolean): Interceptor => ({
      name: 'hook',
      mode: 'enforce',
      failOpen,
      timeoutMs: 1000,
      request: async () => parseWebhookReply({ type: 'validation', valid: 'yes' }, 'request', tool),
    });
    const closed = await new InterceptorChain([malformed(false)]).request(testCall({}));
    expect(closed.refusal?.reason).toBe(
      'it failed (the guardrail answered a validation without a boolean "valid") and does not fail open (failOpen: false)',
    );
    const open = await new InterceptorChain([malformed(true)]).request(testCall({}));
    expect(open.refusal).toBeUndefined();
    expect(open.decisions.map((d) => d.outcome)).toEqual(['error']);
  });
});
