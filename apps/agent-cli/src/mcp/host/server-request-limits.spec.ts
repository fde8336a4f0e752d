import { ServerRequestLimiter } from './server-request-limits';

/** The limiter on its own, with a clock the test moves: the minute window slides, and refusals cost no slot. */
describe('ServerRequestLimiter', () => {
  const refuse = (reason: string) => `refused: ${reason}`;

  it('refuses beyond maxConcurrent while they run, and takes more once one ends', async () => {
    const limiter = new ServerRequestLimiter('sampling requests', { maxConcurrent: 2, perMinute: 100 });
    const releases: Array<() => void> = [];
    const held = () => limiter.run(() => new Promise<string>((resolve) => releases.push(() => resolve('ran'))), refuse);
    const first = held();
    const second = held();
    await expect(held()).resolves.toBe(
      'refused: too many sampling requests at once: at most 2 are handled at a time (serverRequests.maxConcurrent)',
    );
    releases[0]();
    await expect(first).resolves.toBe('ran');
    const third = held();
    releases[1]();
    releases[2]();
    await expect(Promise.all([second, third])).resolves.toEqual(['ran', 'ran']);
  });

  it('starts at most perMinute in any minute; the window slides', async () => {
    let now = 0;
    const limiter = new ServerRequestLimiter('elicitation requests', { maxConcurrent: 10, perMinute: 2 }, () => now);
    const quick = () => limiter.run(async () => 'ran', refuse);
    await expect(quick()).resolves.toBe('ran');
    now = 30_000;
    await expect(quick()).resolves.toBe('ran');
    await expect(quick()).resolves.toBe(
      'refused: too many elicitation requests: at most 2 a minute are handled (serverRequests.perMinute)',
    );
    now = 60_001; // the first has left the window, the second not
    await expect(quick()).resolves.toBe('ran');
    await expect(quick()).resolves.toMatch(/^refused/);
  });
});
