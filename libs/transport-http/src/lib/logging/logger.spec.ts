import { PassThrough } from 'node:stream';

import { createLogger, type LogFormat } from './logger';

function capture(format: LogFormat, level?: string) {
  const stream = new PassThrough();
  const lines: string[] = [];
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  });
  return { logger: createLogger({ stream, format, level }), lines, bytes: () => Buffer.concat(chunks) };
}

const context = { guid: 'g-1', requestId: 'r-1', employeeNo: 'E123', deadline: 0, receivedAt: 0 };
/** Lines are batched for up to 20 ms: wait for the batch to go out on its own. */
const batchWritten = () => new Promise((resolve) => setTimeout(resolve, 40));

describe('createLogger', () => {
  it('writes one key=value line per event with the guid and requestId of the request it is about', async () => {
    const { logger, lines } = capture('kv');
    logger.info('tool_call_completed', { tool: 'echo', status: 200, note: 'two words' }, context);
    await batchWritten();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\S+ level=info event=tool_call_completed tool=echo status=200 note="two words" guid=g-1 requestId=r-1$/);
  });

  it('starts each key=value line with the time as toISOString writes it, milliseconds included', async () => {
    const { logger, lines } = capture('kv');
    // Instants on both sides of second boundaries and with 1-, 2- and 3-digit milliseconds.
    const instants = [
      Date.UTC(2026, 11, 1, 18, 30, 44, 7),
      Date.UTC(2026, 11, 1, 18, 30, 44, 42),
      Date.UTC(2026, 11, 1, 18, 30, 44, 999),
      Date.UTC(2026, 11, 1, 18, 30, 45, 0),
      Date.UTC(2027, 0, 1, 0, 0, 0, 120),
    ];
    const now = jest.spyOn(Date, 'now');
    for (const instant of instants) {
      now.mockReturnValue(instant);
      logger.info('tick', {});
    }
    now.mockRestore();
    await batchWritten();
    expect(lines.map((line) => line.split(' ', 1)[0])).toEqual(instants.map((instant) => new Date(instant).toISOString()));
  });

  it('writes JSON lines when asked', async () => {
    const { logger, lines } = capture('json');
    logger.warn('manifest_rejected', { bundle: 'core' }, context);
    await batchWritten();
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'warn',
      message: 'manifest_rejected',
      bundle: 'core',
      guid: 'g-1',
      requestId: 'r-1',
    });
  });

  it('drops fields that must never be logged, even when code passes them by mistake', async () => {
    const { logger, lines } = capture('kv');
    logger.info('oops', {
      authorization: 'Bearer abc',
      Cookie: 'c=1',
      employeeNo: 'E123',
      'virtual-employee-no': 'V9',
      body: '{}',
      kept: 'yes',
    });
    await batchWritten();
    expect(lines[0]).toContain('kept=yes');
    for (const secret of ['Bearer', 'c=1', 'E123', 'V9', 'body=']) expect(lines[0]).not.toContain(secret);
  });

  it('writes only the lines at or above its level', async () => {
    for (const [level, expected] of [
      ['info', ['event=kept_info', 'event=kept_warn']],
      ['debug', ['event=kept_debug', 'event=kept_info', 'event=kept_warn']],
    ] as const) {
      const { logger, lines } = capture('kv', level);
      logger.debug('kept_debug', {});
      logger.info('kept_info', {});
      logger.warn('kept_warn', {});
      await batchWritten();
      expect(lines.map((line) => line.split(' ')[2])).toEqual(expected);
    }
  });

  it('writes control characters escaped in both formats, never raw', async () => {
    const hostile = 'a\u001b[31mb\u0007c\u0000d\u007fe\u009bf';
    for (const [format, expected] of [
      ['kv', String.raw`method="a\u001b[31mb\u0007c\u0000d\u007fe\u009bf" spaced="x \u001b"`],
      ['json', String.raw`"method":"a\u001b[31mb\u0007c\u0000d\u007fe\u009bf","spaced":"x \u001b"`],
    ] as const) {
      const { logger, bytes } = capture(format);
      logger.info('hostile', { method: hostile, spaced: 'x \u001b' });
      await batchWritten();
      const written = bytes();
      expect(written.toString('utf8')).toContain(expected);
      // eslint-disable-next-line no-control-regex -- the point: no control byte but the line's newline
      expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(written.toString('utf8'))).toBe(false);
    }
  });
});
