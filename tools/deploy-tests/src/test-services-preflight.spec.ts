import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `npm test` on a machine without the programs its tests start: before any phase it installs them or, when
 * it cannot, stops at once with one line saying how (tools/test/test-services-preflight.js), never a
 * hundred failing tests. Here the runner gets a PATH holding node alone (no redis-server, no apt-get, no
 * npx to start Nx with) and installing is turned off.
 */
const ROOT = path.resolve(__dirname, '../../..');

describe('npm test on a machine without redis-server', () => {
  let bin: string;
  beforeAll(() => {
    bin = mkdtempSync(path.join(tmpdir(), 'no-redis-'));
    symlinkSync(process.execPath, path.join(bin, 'node'));
  });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('stops at once, with one line naming the command that installs it, and a failing exit code', () => {
    const run = spawnSync(path.join(bin, 'node'), ['tools/test/run-all.js'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: bin, TEST_SERVICES_INSTALL: '0' },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      // nginx is found in /usr/sbin, where Debian puts it, though that is not on this PATH
      'npm test needs redis-server, which the tests start: run "sudo bash tools/ci/install-test-services.sh", then npm test again.',
    ]);
  });
});
