import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Made on first use, one a test file: the CLI may write into it (`mcp add --scope user`, OAuth credentials). */
let emptyConfigHome: string | undefined;

/**
 * `env` for a run of the CLI in a test, in process or as a child: one without an XDG_CONFIG_HOME of its own
 * (or with the developer's, spread from process.env) gets an empty folder of the test's, since the CLI
 * reads the user's configuration from there, else from ~/.config (user-config.ts): a test run must never
 * read, or write, the developer's own.
 */
export function cliTestEnv<Env extends NodeJS.ProcessEnv>(env: Env): Env {
  if (env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== process.env.XDG_CONFIG_HOME) return env;
  emptyConfigHome ??= mkdtempSync(path.join(tmpdir(), 'agent-cli-config-home-'));
  return { ...env, XDG_CONFIG_HOME: emptyConfigHome };
}
