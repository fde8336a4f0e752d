import path from 'node:path';

/** The installable package's bin, set by its build (tools/packages/build-package.mjs); absent in this repository's build. */
declare const TOOLMESH_PACKAGE_BIN: string | undefined;

/** The names the agent CLI is installed under: the package's bin, and this repository's (`npx agent-cli`). */
const BIN_NAMES = ['toolmesh-agent', 'agent-cli'];

/**
 * The name help, usage and error texts call the program: the bin it was started as when that is one of
 * ours (a symlink or npm's shim keeps the name in argv[1]), else the package's bin, else `agent-cli`. So the
 * installed `toolmesh-agent` says `toolmesh-agent`, and `npx agent-cli` in this repository says `agent-cli`.
 */
export function programName(script: string | undefined): string {
  const invoked = script ? path.basename(script).replace(/\.[cm]?js$/, '') : '';
  if (BIN_NAMES.includes(invoked)) return invoked;
  return typeof TOOLMESH_PACKAGE_BIN === 'string' ? TOOLMESH_PACKAGE_BIN : 'agent-cli';
}

export const PROGRAM = programName(process.argv[1]);
