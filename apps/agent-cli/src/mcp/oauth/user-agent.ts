import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Whoever takes the user to the authorization page: normally their browser. Its redirect then reaches
 * the loopback listener (LoopbackCallback), which is all the flow waits for; `open` only has to start that.
 */
export interface AuthorizationUserAgent {
  open(url: URL, serverName: string): Promise<void>;
}

/** What the browser launcher needs to see of the environment: the display and session, nothing else. */
const BROWSER_ENV = [
  'PATH',
  'HOME',
  'LANG',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'XDG_RUNTIME_DIR',
  'DBUS_SESSION_BUS_ADDRESS',
  'BROWSER',
];

/**
 * Starts `$BROWSER <url>` when set, else `open` (macOS) or `xdg-open` (elsewhere, when there is a display),
 * with a minimal environment; resolves with the launcher once it started, or undefined when there is none
 * or it could not start (the printed address is then the way in). The launcher is not waited for: it
 * exits once it has handed the URL over, and a browser it started may run until the user closes it.
 */
async function launchBrowser(url: URL, env: NodeJS.ProcessEnv): Promise<ChildProcess | undefined> {
  const command = env.BROWSER || (process.platform === 'darwin' ? 'open' : env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : undefined);
  if (command === undefined) return undefined;
  const childEnv = Object.fromEntries(BROWSER_ENV.filter((name) => env[name] !== undefined).map((name) => [name, env[name] as string]));
  const child = spawn(command, [url.href], { env: childEnv, stdio: 'ignore' });
  child.unref();
  return new Promise((resolve) => {
    child.once('spawn', () => resolve(child));
    child.once('error', () => resolve(undefined));
  });
}

/**
 * The user's browser for sign-ins (`launchBrowser`). The URL is always printed as well, since a browser
 * may open on another screen or not at all (over SSH). The browser is the user's and is not ours to stop.
 */
export function browserUserAgent(env: NodeJS.ProcessEnv, notice: (line: string) => void): AuthorizationUserAgent {
  return {
    async open(url, serverName) {
      notice(`to sign in to MCP server "${serverName}", open this address in a browser:\n  ${url.href}\n`);
      await launchBrowser(url, env);
    },
  };
}

/**
 * The browser for pages MCP servers ask the user to open (URL elicitation): `launchBrowser`, and a
 * launcher still running when the agent closes is ended with it, so nothing started for the agent outlives it.
 */
export class BrowserLaunches {
  private readonly running = new Set<ChildProcess>();

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async open(url: URL): Promise<void> {
    const child = await launchBrowser(url, this.env);
    if (!child || child.exitCode !== null) return;
    this.running.add(child);
    child.once('exit', () => this.running.delete(child));
  }

  close(): void {
    for (const child of this.running) child.kill();
    this.running.clear();
  }
}
