import { checkOrigin, LOOPBACK_ORIGIN_POLICY } from './origin-guard';

describe('checkOrigin', () => {
  it.each([
    ['localhost:8080', undefined, true],
    ['127.0.0.1', 'http://127.0.0.1:3000', true],
    ['[::1]:8080', 'http://[::1]:8080', true],
    ['LOCALHOST:1', 'http://LocalHost:5', true],
    ['evil.example.com', undefined, false],
    [undefined, undefined, false],
    ['localhost:8080', 'http://evil.example.com', false],
    ['localhost:8080', 'http://localhost.evil.example.com:80', false],
    ['localhost:8080', 'http://localhost:80abc', false],
    ['localhost:8080', 'https://localhost:8080', false],
    ['localhost:8080', 'null', false],
  ])('Host %s with Origin %s → allowed: %s', (host, origin, allowed) => {
    expect(checkOrigin({ host, origin }, LOOPBACK_ORIGIN_POLICY).ok).toBe(allowed);
  });

  it('accepts any host with "*" and exact origins as configured', () => {
    const policy = { allowedHosts: ['*'], allowedOrigins: ['https://agents.example.com'] };
    expect(checkOrigin({ host: 'gw.internal:443' }, policy).ok).toBe(true);
    expect(checkOrigin({ host: 'gw.internal', origin: 'https://agents.example.com' }, policy).ok).toBe(true);
    expect(checkOrigin({ host: 'gw.internal', origin: 'https://agents.example.com:8443' }, policy).ok).toBe(false);
  });
});
