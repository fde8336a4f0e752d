import { SseParser } from './sse-parser';

const events = (parser: SseParser, text: string) => parser.push(text).map((e) => (e.kind === 'event' ? e.event : `<${e.bytes} dropped>`));

describe('SseParser', () => {
  it('yields events split across chunks (mid-line too), joins multi-line data, and reads id, type and retry', () => {
    const parser = new SseParser(1024);
    expect(events(parser, 'id: 7\nevent: message\ndata: {"a"')).toEqual([]);
    expect(events(parser, ':1}\ndata: x\nretry: 500\n\n')).toEqual([{ event: 'message', data: '{"a":1}\nx', id: '7', retry: 500 }]);
  });

  it('handles CRLF and CR line ends, comments, and events without data', () => {
    const parser = new SseParser(1024);
    expect(events(parser, ': keep-alive\r\n\r\nevent: ping\r\n\r\ndata: a\r\rdata:b\n\n')).toEqual([
      { event: 'message', data: 'a', id: undefined, retry: undefined },
      { event: 'message', data: 'b', id: undefined, retry: undefined },
    ]);
  });

  it('drops an event larger than the limit and recovers at the next one', () => {
    const parser = new SseParser(16);
    expect(events(parser, `data: ${'x'.repeat(40)}\n\ndata: ok\n\n`)).toEqual(['<41 dropped>', { event: 'message', data: 'ok', id: undefined, retry: undefined }]);
  });

  it('does not buffer an endless line', () => {
    const parser = new SseParser(16);
    expect(events(parser, `data: ${'x'.repeat(100)}`)).toEqual([]);
    expect(events(parser, 'more\n\ndata: ok\n\n')).toEqual(['<0 dropped>', { event: 'message', data: 'ok', id: undefined, retry: undefined }]);
  });
});
