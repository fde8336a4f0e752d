import { spawn } from 'node:child_process';

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
 * The user's browser: `$BROWSER <url>` when set, else `open` (macOS) or `xdg-open` (elsewhere, when
 * there is a display), started with a minimal environment. The URL is always printed as well, since a
 * browser may open on another screen or not at all (over SSH). The launcher exits once it has handed
 * the URL over (and is not waited for); the browser is the user's and is not ours to stop.
 */
export function browserUserAgent(env: NodeJS.ProcessEnv, notice: (line: string) => void): AuthorizationUserAgent {
  return {
    async open(url, serverName) {
      notice(`to sign in to MCP server "${serverName}", open this address in a browser:\n  ${url.href}\n`);
      const command = env.BROWSER || (process.platform === 'darwin' ? 'open' : env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : undefined);
      if (command === undefined) return;
      const childEnv = Object.fromEntries(BROWSER_ENV.filter((name) => env[name] !== undefined).map((name) => [name, env[name] as string]));
      await new Promise<void>((resolve) => {
        const child = spawn(command, [url.href], { env: childEnv, stdio: 'ignore' });
        // Not waited for: a browser started by it may run until the user closes it, and the flow waits
        // for the redirect, not for the launcher. No launcher at all: the printed address is the way in.
        child.unref();
        child.once('spawn', () => resolve());
        child.once('error', () => resolve());
      });
    },
  };
}
