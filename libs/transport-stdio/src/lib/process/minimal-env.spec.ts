import { minimalEnv } from './minimal-env';

describe('minimalEnv', () => {
  it('passes the basics and the configured variables, and none of our secrets', () => {
    const ours = { PATH: '/usr/bin', HOME: '/home/me', AWS_SECRET_ACCESS_KEY: 'k', OPENAI_API_KEY: 'sk', GITHUB_TOKEN: 't' };
    expect(minimalEnv({ SERVER_MODE: 'test' }, ours)).toEqual({ PATH: '/usr/bin', HOME: '/home/me', SERVER_MODE: 'test' });
  });

  it('lets the configuration override an inherited variable', () => {
    expect(minimalEnv({ PATH: '/opt/bin' }, { PATH: '/usr/bin' })).toEqual({ PATH: '/opt/bin' });
  });

  it('never inherits exported shell functions', () => {
    expect(minimalEnv({}, { SHELL: '() { :; }; echo pwned' })).toEqual({});
  });
});
