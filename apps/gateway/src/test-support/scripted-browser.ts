const MAX_REDIRECTS = 15;

/** Where a browser's redirects ended: the last page's status and text, or the URL it stopped at. */
export interface BrowsedPage {
  readonly status: number;
  readonly url: URL;
  readonly text: string;
}

/**
 * A person's browser, scripted (issue 48): it follows redirects with a cookie jar of its own (one per origin:
 * the test's servers share a host, 127.0.0.1, on different ports) and, at an authorization server's
 * interaction page, signs in as `user` (the peer's `?login=`, what a login form would post; unset, as the
 * peer's `--subject`). Each user gets their own browser, so A's and B's sessions never mix.
 */
export class ScriptedBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(readonly user?: string) {}

  /** Opens `url` and follows its redirects until a page answers, or one goes to `stopAt` (not fetched). */
  async open(url: string | URL, stopAt?: string): Promise<BrowsedPage> {
    let next = new URL(url);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      if (stopAt !== undefined && next.href.startsWith(stopAt)) return { status: 0, url: next, text: '' };
      if (this.user !== undefined && next.pathname.startsWith('/interaction/')) next.searchParams.set('login', this.user);
      const jar = this.jarOf(next.origin);
      const res = await fetch(next, { redirect: 'manual', headers: jar.size ? { cookie: [...jar.values()].join('; ') } : {} });
      for (const line of res.headers.getSetCookie()) {
        const pair = line.split(';', 1)[0];
        jar.set(pair.split('=', 1)[0], pair);
      }
      const location = res.headers.get('location');
      const text = await res.text();
      if (location === null || res.status < 300 || res.status > 399) return { status: res.status, url: next, text };
      next = new URL(location, next);
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects`);
  }

  private jarOf(origin: string): Map<string, string> {
    let jar = this.jars.get(origin);
    if (jar === undefined) {
      jar = new Map();
      this.jars.set(origin, jar);
    }
    return jar;
  }
}
