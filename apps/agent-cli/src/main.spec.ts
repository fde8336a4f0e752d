import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../..');
const MAIN = path.join(ROOT, 'dist/apps/agent-cli/main.js');

describe('agent-cli process (built dist/apps/agent-cli/main.js)', () => {
  it('prints help with node and nothing else on stdout', () => {
    const stdout = execFileSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8' });
    expect(stdout.startsWith('agent-cli - ')).toBe(true);
    expect(stdout).toContain('Exit codes:');
  });

  it('runs as "npx agent-cli" through the root package bin', () => {
    const result = spawnSync('npx', ['--no-install', 'agent-cli', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits with 2 on a usage error', () => {
    const result = spawnSync(process.execPath, [MAIN, '--bogus'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
  });
});
