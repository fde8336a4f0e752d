import { oversizedReply, oversizedReplyId } from './oversized-reply';

describe('oversizedReplyId', () => {
  it('finds the id first or after "jsonrpc" at the start, or last at the end (as the SDK writes it)', () => {
    expect(oversizedReplyId('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxx', 'xxx"}]}}')).toBe(7);
    expect(oversizedReplyId('{"id":"a\\"b","jsonrpc":"2.0","result":', '}}')).toBe('a"b');
    expect(oversizedReplyId('{"result":{"content":[{"type":"text","text":"xx', 'xx"}]},"jsonrpc":"2.0","id":12}\n')).toBe(12);
  });

  it('does not take an id from inside the result', () => {
    expect(oversizedReplyId('{"result":{"items":[{"id":3,"x":"', 'xx"}]},"jsonrpc":"2.0"}')).toBeUndefined();
    expect(oversizedReplyId('{"result":{"text":"say \\"id\\":4', ' \\"id\\":5}"}}')).toBeUndefined();
  });
});

describe('oversizedReply', () => {
  it('is a JSON-RPC error response for that id naming the size, the limit and the code', () => {
    expect(oversizedReply(3, 5_000_000, 4_194_304, 'stdio.message_too_large')).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32603,
        message:
          "the server's reply of 5000000 bytes is over this client's limit of 4194304 bytes; it was dropped [stdio.message_too_large]",
        data: { reason: 'stdio.message_too_large', bytes: 5_000_000, limit: 4_194_304 },
      },
    });
  });
});
