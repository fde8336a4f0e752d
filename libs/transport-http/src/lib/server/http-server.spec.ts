import { listenHttp } from './http-server';

describe('listenHttp graceful close', () => {
  it('lets an in-flight request finish, refuses new connections, then closes', async () => {
    let release: () => void = () => undefined;
    const server = await listenHttp(
      (_req, res) => {
        release = () => res.end('done');
      },
      { port: 0, host: '127.0.0.1' },
    );
    const inFlight = fetch(server.url).then((r) => r.text());
    while (server.inFlight() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(server.inFlight()).toBe(1);

    const closing = server.close(5_000);
    await expect(fetch(server.url)).rejects.toThrow(); // the listener is gone
    release();
    expect(await inFlight).toBe('done');
    await closing;
    expect(server.inFlight()).toBe(0);
  });

  it('cuts requests still running when the drain time is over', async () => {
    const server = await listenHttp(() => undefined, { port: 0, host: '127.0.0.1' }); // never answers
    const hanging = fetch(server.url);
    hanging.catch(() => undefined); // asserted below
    while (server.inFlight() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await server.close(200);
    await expect(hanging).rejects.toThrow('fetch failed');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
