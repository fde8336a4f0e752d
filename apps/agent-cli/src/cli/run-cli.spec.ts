import { ExitCode, HELP, runCli } from './run-cli';

function run(...args: string[]) {
  const out = { stdout: '', stderr: '' };
  const code = runCli(args, { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) }, '1.2.3');
  return { code, ...out };
}

describe('runCli', () => {
  it.each([[[]], [['--help']], [['-h']], [['help']]])('prints help for %j', (args) => {
    expect(run(...args)).toEqual({ code: ExitCode.Ok, stdout: HELP, stderr: '' });
  });

  it('prints the version', () => {
    expect(run('--version')).toEqual({ code: ExitCode.Ok, stdout: '1.2.3\n', stderr: '' });
  });

  it('refuses an unknown option with exit code 2 and a hint', () => {
    const result = run('--frobnicate');
    expect(result.code).toBe(ExitCode.Usage);
    expect(result.stderr).toContain("Unknown option '--frobnicate'");
    expect(result.stderr).toContain('agent-cli --help');
  });

  it('refuses an unknown command with exit code 2', () => {
    expect(run('launch')).toMatchObject({ code: ExitCode.Usage, stderr: expect.stringContaining('unknown command "launch"') });
  });
});
