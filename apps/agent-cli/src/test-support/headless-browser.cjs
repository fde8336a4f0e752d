#!/usr/bin/env node
/**
 * A stand-in for the user's browser in tests ($BROWSER=<this> <url>): opens the authorization URL and
 * follows the redirects it answers with (through an authorization server's own interaction pages, with
 * the cookies they set, as a browser keeps them) until the agent's loopback listener answers, as a browser
 * would once the user has agreed. Prints nothing it received. It notes the names of the environment
 * variables it was given in $HOME/browser-env.json, for the test of the launcher's minimal environment.
 */
const { writeFileSync } = require('node:fs');
const path = require('node:path');

const MAX_REDIRECTS = 10;

if (process.env.HOME) writeFileSync(path.join(process.env.HOME, 'browser-env.json'), JSON.stringify(Object.keys(process.env).sort()));
(async () => {
  /** Cookies by origin: name to `name=value`. Paths and expiry do not matter for one sign-in. */
  const jar = new Map();
  let url = new URL(process.argv[2]);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    const cookies = jar.get(url.origin) ?? new Map();
    const res = await fetch(url, { redirect: 'manual', headers: cookies.size ? { cookie: [...cookies.values()].join('; ') } : {} });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0];
      cookies.set(pair.split('=', 1)[0], pair);
    }
    jar.set(url.origin, cookies);
    const location = res.headers.get('location');
    await res.arrayBuffer();
    if (res.status < 300 || res.status >= 400) {
      if (hop === 0) throw new Error(`the authorization page answered HTTP ${res.status} without a redirect`);
      return;
    }
    if (!location) throw new Error(`HTTP ${res.status} without a Location`);
    url = new URL(location, url);
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
})().catch((error) => {
  process.stderr.write(`headless-browser: ${error.message}\n`);
  process.exitCode = 1;
});
