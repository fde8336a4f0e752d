import { LineSplitter } from './line-splitter';

const lines = (events: ReturnType<LineSplitter['push']>) =>
  events.map((e) => (e.kind === 'line' ? e.line.toString() : `<${e.bytes} dropped>`));

describe('LineSplitter', () => {
  it('joins lines split across chunks and splits chunks holding several lines', () => {
    const splitter = new LineSplitter(100);
    expect(lines(splitter.push(Buffer.from('{"a":')))).toEqual([]);
    expect(lines(splitter.push(Buffer.from('1}\n{"b":2}\n{"c"')))).toEqual(['{"a":1}', '{"b":2}']);
    expect(lines(splitter.push(Buffer.from(':3}\n')))).toEqual(['{"c":3}']);
  });

  it('drops CR of CRLF and skips blank lines', () => {
    expect(lines(new LineSplitter(100).push(Buffer.from('a\r\n\n\r\nb\n')))).toEqual(['a', 'b']);
  });

  it('drops a line longer than the limit, reports its size once, and recovers on the next line', () => {
    const splitter = new LineSplitter(10);
    expect(lines(splitter.push(Buffer.from('0123456789ABC')))).toEqual([]);
    expect(lines(splitter.push(Buffer.from('DEF\nok\n')))).toEqual(['<16 dropped>', 'ok']);
  });

  it('keeps the first and last bytes of a dropped line, to tell what it was', () => {
    const splitter = new LineSplitter(10, 4);
    expect(splitter.push(Buffer.from('{"id":1,'))).toEqual([]);
    expect(splitter.push(Buffer.from('"xxxxxxxxxx"'))).toEqual([]);
    expect(splitter.push(Buffer.from('yz}\n'))).toEqual([{ kind: 'oversized', bytes: 23, head: '{"id', tail: '"yz}' }]);
  });

  it('accepts a line of exactly the limit', () => {
    expect(lines(new LineSplitter(3).push(Buffer.from('abc\n')))).toEqual(['abc']);
  });
});
