import { RingBuffer } from './ring-buffer';

describe('RingBuffer', () => {
  it('keeps everything while under capacity', () => {
    const buffer = new RingBuffer(10);
    buffer.write(Buffer.from('abc'));
    buffer.write(Buffer.from('def'));
    expect(buffer.text()).toBe('abcdef');
  });

  it('keeps only the last bytes and says how many were dropped', () => {
    const buffer = new RingBuffer(5);
    buffer.write(Buffer.from('abc'));
    buffer.write(Buffer.from('defg'));
    buffer.write(Buffer.from('0123456789'));
    expect(buffer.byteLength).toBe(5);
    expect(buffer.text()).toBe('[12 earlier bytes dropped]\n56789');
  });
});
