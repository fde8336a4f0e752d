import { type SseParseEvent, SseParser } from './sse-parser';

const events = (parser: SseParser, text: string) => parser.push(text).map(shown);
const shown = (e: SseParseEvent) =>
  e.kind === 'event' ? e.event : e.kind === 'oversized' ? `<${e.bytes} dropped>` : `<deeper than ${e.maxDepth}>`;
const message = (data: string, more: { event?: string; id?: string; retry?: number } = {}) => ({
  event: 'message',
  data,
  id: undefined,
  retry: undefined,
  ...more,
});

describe('SseParser', () => {
  it('yields events split across chunks (mid-line too), joins multi-line data, and reads id, type and retry', () => {
    const parser = new SseParser(1024);
    expect(events(parser, 'id: 7\nevent: message\ndata: {"a"')).toEqual([]);
    expect(events(parser, ':1}\ndata: x\nretry: 500\n\n')).toEqual([{ event: 'message', data: '{"a":1}\nx', id: '7', retry: 500 }]);
  });

  it('handles CRLF and CR line ends, comments, and events without data', () => {
    const parser = new SseParser(1024);
    expect(events(parser, ': keep-alive\r\n\r\nevent: ping\r\n\r\ndata: a\r\rdata:b\n\n')).toEqual([message('a'), message('b')]);
  });

  it('waits for the next chunk when one ends in \\r, as it may be the first half of \\r\\n', () => {
    const parser = new SseParser(1024);
    expect(events(parser, 'data: one\r')).toEqual([]);
    expect(events(parser, '\ndata: two\r\n\r')).toEqual([]);
    expect(events(parser, '\n')).toEqual([message('one\ntwo')]);
  });

  it('counts, at the end of the stream, an event whose closing blank line never came', () => {
    const parser = new SseParser(1024);
    expect(events(parser, 'data: one\n\ndata: two\r')).toEqual([message('one')]);
    expect(parser.end().map(shown)).toEqual([message('two')]);
  });

  it('drops an event whose JSON nests deeper than maxDepth, lines and chunks counted together, and recovers at the next one', () => {
    const parser = new SseParser(1024, 3);
    expect(events(parser, 'data: {"a":[\ndata: ["[[[ in a string"]]}\n\n')).toEqual([message('{"a":[\n["[[[ in a string"]]}')]);
    expect(events(parser, 'data: {"a":[[')).toEqual([]);
    expect(events(parser, '[1]]]}\n\ndata: [[]]\n\n')).toEqual(['<deeper than 3>', message('[[]]')]);
  });

  it('reports a data line too deep as its pieces arrive, before its end, and skips the rest of the event', () => {
    const parser = new SseParser(1 << 20, 3);
    expect(events(parser, 'event: message\nda')).toEqual([]);
    expect(events(parser, 'ta: [[')).toEqual([]);
    expect(events(parser, `[[${'['.repeat(100_000)}`)).toEqual(['<deeper than 3>']);
    expect(events(parser, `${']'.repeat(100_000)}]]]]\ndata: [[[[[\n`)).toEqual([]);
    expect(events(parser, '\ndata: [1]\n\n')).toEqual([message('[1]')]);
  });

  it('measures no depth when given none', () => {
    expect(events(new SseParser(1024), `data: ${'['.repeat(300)}\n\n`)).toEqual([message('['.repeat(300))]);
  });

  it('drops an event larger than the limit and recovers at the next one', () => {
    const parser = new SseParser(16);
    expect(events(parser, `data: ${'x'.repeat(40)}\n\ndata: ok\n\n`)).toEqual(['<41 dropped>', message('ok')]);
  });

  it('does not buffer an endless line, and drops the rest of it when its end comes', () => {
    const parser = new SseParser(16);
    expect(events(parser, `data: ${'x'.repeat(100)}`)).toEqual([]);
    expect(events(parser, 'data: more\n\ndata: ok\n\n')).toEqual(['<0 dropped>', message('ok')]);
  });
});

/** Streams with what the parser must read the same however the bytes arrive, and the events they hold. */
const STREAMS: ReadonlyArray<{ name: string; stream: string; expected: unknown[]; maxEventBytes?: number; maxDepth?: number }> = [
  { name: 'LF line ends', stream: 'data: one\n\ndata: two\n\n', expected: [message('one'), message('two')] },
  { name: 'CRLF line ends', stream: 'data: one\r\n\r\ndata: two\r\n\r\n', expected: [message('one'), message('two')] },
  { name: 'CR line ends', stream: 'data: one\r\rdata: two\r\r', expected: [message('one'), message('two')] },
  { name: 'mixed line ends', stream: 'data: a\r\ndata: b\rdata: c\n\r\n', expected: [message('a\nb\nc')] },
  { name: 'multi-line data', stream: 'data: {"a":\ndata:1}\ndata\n\n', expected: [message('{"a":\n1}\n')] },
  { name: 'comments', stream: ': keep-alive\r\n:\r\ndata: x\r\n: between\r\n\r\n', expected: [message('x')] },
  {
    name: 'event, id and retry fields',
    stream: 'event: ping\nid: 1\nretry: 250\ndata: p\n\nid: 2\ndata: q\n\nid\ndata: r\n\n',
    expected: [
      message('p', { event: 'ping', id: '1', retry: 250 }),
      message('q', { id: '2', retry: 250 }),
      message('r', { id: '', retry: 250 }),
    ],
  },
  { name: 'empty events', stream: '\n\nevent: x\n\ndata:\n\ndata\r\n\r\n\r\n', expected: [message(''), message('')] },
  { name: 'a byte order mark', stream: '\uFEFFdata: one\n\n', expected: [message('one')] },
  { name: 'multi-byte characters', stream: 'data: hé 🙂\r\n\r\ndata: ✓\r\n\r\n', expected: [message('hé 🙂'), message('✓')] },
  { name: 'no closing blank line', stream: 'data: one\n\ndata: two\r', expected: [message('one'), message('two')] },
  {
    name: 'an event over the limit',
    stream: 'data: 0123456789\ndata: 0123456789\n\ndata: ok\n\n',
    expected: ['<22 dropped>', message('ok')],
    maxEventBytes: 16,
  },
  {
    name: 'an event too deep, over two lines',
    stream: 'data: {"s":"[[[[",\r\ndata: "a":[[1]]}\r\n\r\ndata: [[\r\ndata: [\r\ndata: [1]]]]\r\n\r\ndata: [[ok]]\r\n\r\n',
    expected: [message('{"s":"[[[[",\n"a":[[1]]}'), '<deeper than 3>', message('[[ok]]')],
    maxDepth: 3,
  },
  {
    name: 'an event too deep on one line',
    stream: 'id: 1\ndata: [[[[[[]]]]]]\nid: 2\n\ndata: []\n\n',
    expected: ['<deeper than 3>', message('[]', { id: '2' })],
    maxDepth: 3,
  },
];

/** Parses the stream given as byte chunks, decoded as a transport does (keeping a byte order mark), to its end. */
function parse(chunks: readonly Buffer[], maxEventBytes = 1024, maxDepth?: number): unknown[] {
  const parser = new SseParser(maxEventBytes, maxDepth);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const out = chunks.flatMap((chunk) => parser.push(decoder.decode(chunk, { stream: true })));
  return [...out, ...parser.push(decoder.decode()), ...parser.end()].map(shown);
}

describe.each(STREAMS)('SseParser on a stream with $name', ({ stream, expected, maxEventBytes, maxDepth }) => {
  const bytes = Buffer.from(stream);

  it('yields its events read whole', () => {
    expect(parse([bytes], maxEventBytes, maxDepth)).toEqual(expected);
  });

  it('yields the same events cut in two at every byte', () => {
    for (let at = 0; at <= bytes.length; at++) {
      expect({ at, events: parse([bytes.subarray(0, at), bytes.subarray(at)], maxEventBytes, maxDepth) }).toEqual({ at, events: expected });
    }
  });

  it('yields the same events fed byte by byte', () => {
    expect(
      parse(
        [...bytes].map((byte) => Buffer.of(byte)),
        maxEventBytes,
        maxDepth,
      ),
    ).toEqual(expected);
  });
});
