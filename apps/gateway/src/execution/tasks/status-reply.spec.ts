import { randomBytes } from 'node:crypto';

import type { ToolHttpResponse } from '../../tool-client/tool-client';
import { readStatusReply } from './status-reply';

const TOOL = { name: 'slow_compute' };
const reply = (status: number, body = '', retryAfter?: string): ToolHttpResponse => ({
  kind: 'reply',
  status,
  body,
  ...(status === 202 && { accepted: retryAfter === undefined ? {} : { retryAfter } }),
});

describe('a status URL reply', () => {
  it('202 is still working, with its Retry-After and a short printable statusMessage', () => {
    expect(readStatusReply(TOOL, reply(202, '{"statusMessage":"50%\\n done"}', '2'), 'envelope', 5)).toEqual({
      kind: 'working',
      retryAfter: '2',
      statusMessage: '50%  done',
    });
    expect(readStatusReply(TOOL, reply(202, JSON.stringify({ statusMessage: 'x'.repeat(5_000) })), 'envelope', 5)).toMatchObject({
      statusMessage: 'x'.repeat(200),
    });
    expect(readStatusReply(TOOL, reply(202, 'not json'), 'envelope', 5)).toEqual({ kind: 'working' });
  });

  it("any other answer is the job's reply, mapped as a synchronous call's (a non-2xx is the tool's error)", () => {
    expect(readStatusReply(TOOL, reply(200, '{"data":"done"}'), 'envelope', 5)).toMatchObject({
      kind: 'ended',
      end: { result: { isError: false, content: [{ text: 'done' }] } },
    });
    expect(readStatusReply(TOOL, reply(500, '{"error":"disk full"}'), 'envelope', 5)).toMatchObject({
      end: { result: { isError: true, content: [{ text: 'Tool slow_compute failed: the tool service answered HTTP 500: disk full' }] } },
    });
    expect(readStatusReply(TOOL, reply(200, 'plain text'), 'plain', 5)).toMatchObject({
      end: { result: { content: [{ text: 'plain text' }] } },
    });
  });

  it('a job gone, a redirect, a request for input or a reply too large fail the task with a JSON-RPC error saying so', () => {
    const failure = (response: ToolHttpResponse) => readStatusReply(TOOL, response, 'envelope', 5);
    expect(failure(reply(410))).toMatchObject({ end: { error: { code: -32603, message: expect.stringContaining('job is gone') } } });
    expect(failure(reply(404))).toMatchObject({ end: { error: { code: -32603 } } });
    expect(failure(reply(302))).toMatchObject({ end: { error: { message: expect.stringContaining('HTTP 302') } } });
    const input =
      '{"inputRequired":{"inputRequests":{"a":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}}}}';
    expect(failure(reply(200, input))).toMatchObject({ end: { error: { message: expect.stringContaining('asked for input') } } });
    expect(failure({ kind: 'failure', reason: 'reply_too_large', detail: 'the reply exceeds 8 bytes' })).toMatchObject({
      end: { error: { message: expect.stringContaining('exceeds 8 bytes') } },
    });
  });

  it('no answer (timeout, refused) and a 401 to the credentials a read carried are tried again', () => {
    expect(readStatusReply(TOOL, reply(401, '{"error":"who are you"}'), 'envelope', 5)).toMatchObject({ kind: 'unanswered' });
    expect(readStatusReply(TOOL, { kind: 'failure', reason: 'timeout', detail: 'no complete reply within 5 ms' }, 'envelope', 5)).toEqual({
      kind: 'unanswered',
      detail: 'no complete reply within 5 ms',
    });
  });

  it('fuzz: random statuses and bodies never throw, and always give one of the three steps', () => {
    for (let i = 0; i < 2_000; i++) {
      const status = 100 + Math.floor(Math.random() * 500);
      const bytes = randomBytes(Math.floor(Math.random() * 64));
      const body =
        i % 3 === 0
          ? bytes.toString('latin1')
          : i % 3 === 1
            ? `{"data":${JSON.stringify(bytes.toString('hex'))}`
            : `{"statusMessage":${JSON.stringify(bytes.toString('utf8'))}}`;
      const step = readStatusReply(TOOL, reply(status, body, bytes.toString('latin1')), i % 2 ? 'plain' : 'envelope', 1);
      expect(['working', 'ended', 'unanswered']).toContain(step.kind);
      // eslint-disable-next-line no-control-regex -- control characters are what must not come through
      if (step.kind === 'working' && step.statusMessage !== undefined) expect(step.statusMessage).not.toMatch(/[\u0000-\u001f]/);
    }
  });
});
