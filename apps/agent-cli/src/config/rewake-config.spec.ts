import { AgentErrorCode } from '../errors/agent-errors';
import { parseConfig } from './load-config';
import { DEFAULT_REWAKE_CONFIG } from './rewake-config';

const SERVERS = 'mcp:\n  servers:\n    - { name: jobs, command: x }\n';
const rewake = (text: string) => parseConfig(SERVERS + text, 'agent-cli.yaml', {}).rewake;
const failure = (text: string) => {
  try {
    rewake(text);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected the configuration to be refused');
};

describe('agent configuration: rewake', () => {
  it('defaults to the built-in rules and a buffer of 100 when the section is absent', () => {
    expect(rewake('')).toEqual(DEFAULT_REWAKE_CONFIG);
    expect(DEFAULT_REWAKE_CONFIG).toEqual({ rules: [], defaults: true, bufferSize: 100 });
  });

  it('reads rules with their optional matchers, the defaults switch and the buffer size', () => {
    expect(
      rewake(`rewake:
  bufferSize: 500
  defaults: false
  rules:
    - { method: "notifications/jobs/*", type: job.finished, server: jobs }
    - { method: notifications/resources/updated, type: report.ready, uriPrefix: "file:///reports/" }
    - { method: notifications/message, type: alert, minLevel: error }
`),
    ).toEqual({
      bufferSize: 500,
      defaults: false,
      rules: [
        { method: 'notifications/jobs/*', type: 'job.finished', server: 'jobs' },
        { method: 'notifications/resources/updated', type: 'report.ready', uriPrefix: 'file:///reports/' },
        { method: 'notifications/message', type: 'alert', minLevel: 'error' },
      ],
    });
  });

  it('is read next to an imported mcpServers file too', () => {
    const config = parseConfig(
      JSON.stringify({ mcpServers: { jobs: { command: 'x' } }, rewake: { rules: [{ method: 'a', type: 'b' }] } }),
      'x.json',
      {},
    );
    expect(config.rewake?.rules).toEqual([{ method: 'a', type: 'b' }]);
  });

  it.each([
    ['a misspelt setting', 'rewake:\n  rule: []\n', /rewake\.rule is not a known setting \(known: rules, defaults, bufferSize\)/],
    [
      'a misspelt rule setting',
      'rewake:\n  rules:\n    - { method: a, type: b, uri: x }\n',
      /rewake\.rules\[0\]\.uri is not a known setting/,
    ],
    ['a rule without a type', 'rewake:\n  rules:\n    - { method: a }\n', /rewake\.rules\[0\]\.type must be a non-empty string/],
    [
      'a bad event type',
      'rewake:\n  rules:\n    - { method: a, type: "Job Done" }\n',
      /rewake\.rules\[0\]\.type must be at most 64 lowercase letters/,
    ],
    [
      'an unknown log level',
      'rewake:\n  rules:\n    - { method: a, type: b, minLevel: loud }\n',
      /rewake\.rules\[0\]\.minLevel must be one of "debug", "info"/,
    ],
    [
      'an unknown server',
      'rewake:\n  rules:\n    - { method: a, type: b, server: nope }\n',
      /rewake\.rules\[0\]\.server is "nope", which is not a configured server \(configured: jobs\)/,
    ],
    ['a non-boolean defaults', 'rewake:\n  defaults: "no"\n', /rewake\.defaults must be true or false/],
    ['a zero buffer', 'rewake:\n  bufferSize: 0\n', /rewake\.bufferSize must be a positive whole number/],
    ['a huge buffer', 'rewake:\n  bufferSize: 1000000\n', /rewake\.bufferSize must be at most 10000/],
    ['rules that are not a list', 'rewake:\n  rules: { method: a }\n', /rewake\.rules must be a list/],
  ])('refuses %s, naming the setting', (_, text, message) => {
    const error = failure(text);
    expect(error.code).toBe(AgentErrorCode.ConfigInvalid);
    expect(error.message).toMatch(message);
    expect(error.message).toContain('agent-cli.yaml');
  });
});
