import type { LogFormat } from '@toolmesh/transport-http/server';

import { useGatewayWithSampleService } from '../test-support/test-gateway';

/** What a client can put in a name never reaches the log raw or whole, in either log format (SPEC G26). */
describe.each<LogFormat>(['kv', 'json'])('hostile names in the gateway log (%s)', (format) => {
  const { gateway } = useGatewayWithSampleService((config) => {
    config.logging.format = format;
  });

  it('writes an unknown tool name escaped and cut to 64 characters', async () => {
    const name = `evil\u001b]0;owned\u0007\u0000${'x'.repeat(10_000)}`;
    const reply = await gateway().rpc('tools/call', { name, arguments: {} });
    expect(reply.error?.code).toBe(-32001);
    const line = gateway()
      .logs()
      .split('\n')
      .find((candidate) => candidate.includes('catalogue_refresh_forced'));
    const logged = String.raw`evil\u001b]0;owned\u0007\u0000` + 'x'.repeat(64 - 'evil\u001b]0;owned\u0007\u0000'.length) + '...';
    // In JSON the escape's backslash is itself escaped: the value reads as the escaped text, not the control.
    expect(line).toContain(format === 'kv' ? `tool=${logged}` : `"tool":${JSON.stringify(logged)}`);
    // eslint-disable-next-line no-control-regex -- the point: no control byte but the lines' newlines
    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(gateway().logs())).toBe(false);
  });
});
