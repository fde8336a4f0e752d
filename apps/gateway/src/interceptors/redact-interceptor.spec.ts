import { testCall } from '../test-support/intercepted-calls';
import type { InterceptedResult, Verdict } from './interceptor';
import { redactJudge } from './redact-interceptor';

/** Planted: an AWS access key id, a GitHub token and an e-mail address (all made up). */
const AWS_KEY = 'AKIA' + 'QW3RTY7UIOPASDFG';
const GITHUB_TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const EMAIL = 'jane.doe@example.com';

const judge = redactJudge({ secrets: true, personalData: ['EMAIL', 'PHONE', 'CREDIT_CARD', 'SSN'] });
async function redacted(result: InterceptedResult): Promise<InterceptedResult | 'unchanged'> {
  const verdict: Verdict = await judge(testCall({}), result);
  if (verdict.kind === 'allow') return 'unchanged';
  if (verdict.kind !== 'modify' || !('result' in verdict)) throw new Error(`unexpected ${verdict.kind}`);
  return verdict.result;
}

describe('the redact interceptor (secretlint and @redactpii/node, ADR 0027)', () => {
  it('removes a planted credential and an e-mail address from text content and from structuredContent', async () => {
    const text = `key ${AWS_KEY} token ${GITHUB_TOKEN}\nwrite to ${EMAIL}`;
    const result = await redacted({
      content: [{ type: 'text', text, _meta: { searchTime: 3 } }],
      structuredContent: { owner: { email: EMAIL, keys: [AWS_KEY, 'plain'] }, count: 2 },
      isError: false,
    });
    const serialized = JSON.stringify(result);
    for (const planted of [AWS_KEY, GITHUB_TOKEN, EMAIL]) expect(serialized).not.toContain(planted);
    expect(result).toEqual({
      content: [{ type: 'text', text: 'key [REDACTED SECRET] token [REDACTED SECRET]\nwrite to EMAIL_ADDRESS', _meta: { searchTime: 3 } }],
      structuredContent: { owner: { email: 'EMAIL_ADDRESS', keys: ['[REDACTED SECRET]', 'plain'] }, count: 2 },
      isError: false,
    });
  });

  it('passes a clean result on as it is, and leaves non-text blocks alone', async () => {
    expect(await redacted({ content: [{ type: 'text', text: 'nothing to hide', _meta: { searchTime: 1 } }], isError: false })).toBe(
      'unchanged',
    );
    const image = { type: 'image', data: 'aGk=', mimeType: 'image/png' };
    expect(await redacted({ content: [image, { type: 'text', text: EMAIL }] })).toEqual({
      content: [image, { type: 'text', text: 'EMAIL_ADDRESS' }],
    });
  });

  it('finds only what it is configured to', async () => {
    const secretsOnly = redactJudge({ secrets: true, personalData: [] });
    const verdict = await secretsOnly(testCall({}), { content: [{ type: 'text', text: `${EMAIL} ${GITHUB_TOKEN}` }] });
    expect(verdict).toEqual({ kind: 'modify', result: { content: [{ type: 'text', text: `${EMAIL} [REDACTED SECRET]` }] } });
    const personalOnly = redactJudge({ secrets: false, personalData: ['EMAIL'] });
    expect(personalOnly(testCall({}), { content: [{ type: 'text', text: `${EMAIL} ${GITHUB_TOKEN}` }] })).toEqual({
      kind: 'modify',
      result: { content: [{ type: 'text', text: `EMAIL_ADDRESS ${GITHUB_TOKEN}` }] },
    });
  });
});
