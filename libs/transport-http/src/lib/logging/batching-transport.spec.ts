import { Writable } from 'node:stream';

import { BatchingStreamTransport, MESSAGE } from './batching-transport';

function recorder() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, writes };
}

const line = (text: string) => ({ [MESSAGE]: text });
const log = (transport: BatchingStreamTransport, text: string) => transport.log(line(text), () => undefined);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BatchingStreamTransport', () => {
  it('writes the lines of a burst together, on its own within the flush interval', async () => {
    const { stream, writes } = recorder();
    const transport = new BatchingStreamTransport(stream, { flushMillis: 30 });
    for (const text of ['a', 'b', 'c']) log(transport, text);
    expect(writes).toEqual([]);
    await sleep(80);
    expect(writes).toEqual(['a\nb\nc\n']);
    log(transport, 'd');
    await sleep(80);
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes at once when the pending lines reach the size limit', () => {
    const { stream, writes } = recorder();
    const transport = new BatchingStreamTransport(stream, { flushMillis: 60_000, maxPendingBytes: 10 });
    log(transport, '1234');
    expect(writes).toEqual([]);
    log(transport, '56789');
    expect(writes).toEqual(['1234\n56789\n']);
  });

  it('writes non-ASCII lines byte for byte, and a line longer than a whole batch on its own', () => {
    const { stream, writes } = recorder();
    const transport = new BatchingStreamTransport(stream, { flushMillis: 60_000, maxPendingBytes: 16 });
    log(transport, 'é—😀');
    log(transport, 'x'.repeat(5000));
    log(transport, 'after');
    transport.flush();
    expect(writes).toEqual(['é—😀\n', `${'x'.repeat(5000)}\n`, 'after\n']);
  });

  it('writes what is pending on flush() and on close(), and nothing when nothing is', () => {
    const { stream, writes } = recorder();
    const transport = new BatchingStreamTransport(stream, { flushMillis: 60_000 });
    transport.flush();
    log(transport, 'before exit');
    transport.flush();
    log(transport, 'on close');
    transport.close();
    expect(writes).toEqual(['before exit\n', 'on close\n']);
  });

  it('survives a stream that fails (EPIPE): told once, the lines after it dropped, nothing thrown', async () => {
    let writes = 0;
    const stream = new Writable({
      write(_chunk: Buffer, _encoding, done) {
        writes += 1;
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const failures: string[] = [];
    const transport = new BatchingStreamTransport(stream, {
      flushMillis: 60_000,
      onStreamError: (error) => failures.push((error as NodeJS.ErrnoException).code ?? ''),
    });
    log(transport, 'first');
    transport.flush();
    await sleep(20);
    expect(failures).toEqual(['EPIPE']);
    log(transport, 'second');
    transport.flush();
    log(transport, 'x'.repeat(100_000));
    transport.close();
    await sleep(20);
    expect(writes).toBe(1);
    expect(failures).toEqual(['EPIPE']);
  });
});
