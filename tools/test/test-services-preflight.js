const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/**
 * `npm test` on a fresh machine: its tests start redis-server and nginx themselves, and npm cannot install
 * them. Before any phase the runner looks for both. What is missing it installs with the script CI runs
 * when it can (root or password-less sudo, and apt-get), saying so in one line; otherwise it stops at once
 * with one line naming the command to run, rather than a hundred tests failing one by one.
 * TEST_SERVICES_INSTALL=0 never installs.
 */
const root = path.resolve(__dirname, '..', '..');
const INSTALL_SCRIPT = 'tools/ci/install-test-services.sh';
const INSTALL_COMMAND = `sudo bash ${INSTALL_SCRIPT}`;
// Debian puts nginx in /usr/sbin, often not on a user's PATH; tools/test/nginx.ts looks there too.
const ALSO_SEARCHED = { 'redis-server': [], nginx: ['/usr/sbin', '/usr/local/sbin'] };

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const onPath = (program, env) =>
  [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), ...(ALSO_SEARCHED[program] ?? [])].some((dir) =>
    isExecutable(path.join(dir, program)),
  );

const missingServices = (env) => Object.keys(ALSO_SEARCHED).filter((program) => !onPath(program, env));

/** The install script runs apt-get, as root or through sudo; a sudo that would ask for a password cannot. */
function canInstall(env) {
  if (env.TEST_SERVICES_INSTALL === '0' || !onPath('apt-get', env)) return false;
  if (process.getuid?.() === 0) return true;
  return onPath('sudo', env) && spawnSync('sudo', ['-n', 'true'], { env, stdio: 'ignore' }).status === 0;
}

/** True when the tests' services are there, installed now if need be; else says how to get them, once. */
function ensureTestServices(env = process.env) {
  const missing = missingServices(env);
  if (missing.length === 0) return true;
  if (canInstall(env)) {
    console.log(`npm test: installing ${missing.join(' and ')}, which the tests start, with ${INSTALL_SCRIPT}`);
    spawnSync('bash', [INSTALL_SCRIPT], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const stillMissing = missingServices(env);
  if (stillMissing.length === 0) return true;
  console.error(`npm test needs ${stillMissing.join(' and ')}, which the tests start: run "${INSTALL_COMMAND}", then npm test again.`);
  return false;
}

module.exports = { ensureTestServices };
