import type { RequestContext } from '@toolmesh/transport-http/server';

import { acceptsEventStream } from './request-headers';

const withAccept = (accept: string | string[] | undefined): RequestContext =>
  ({ guid: 'g', requestId: 'r', deadline: 0, receivedAt: 0, headers: accept === undefined ? {} : { accept } }) as unknown as RequestContext;

describe('acceptsEventStream', () => {
  it('reads each Accept on its own, whatever the one before it said', () => {
    const answers = [
      'application/json, text/event-stream',
      'application/json',
      'Text/Event-Stream;q=0.5',
      'application/json',
      'text/event-streams',
      'application/json, text/event-stream',
    ].map((accept) => acceptsEventStream(withAccept(accept)));
    expect(answers).toEqual([true, false, true, false, false, true]);
  });

  it('says no without an Accept, and reads the first of a repeated one', () => {
    expect(acceptsEventStream(withAccept(undefined))).toBe(false);
    expect(acceptsEventStream(withAccept(['text/event-stream', 'application/json']))).toBe(true);
    expect(acceptsEventStream(withAccept(['application/json', 'text/event-stream']))).toBe(false);
  });
});
