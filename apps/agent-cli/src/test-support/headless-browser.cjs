#!/usr/bin/env node
/**
 * A stand-in for the user's browser in tests ($BROWSER=<this> <url>): opens the authorization URL, and
 * takes the redirect it answers with (to the agent's loopback listener) as a browser would once the
 * user has agreed. Prints nothing it received. It notes the names of the environment variables it was
 * given in $HOME/browser-env.json, for the test of the launcher's minimal environment.
 */
const { writeFileSync } = require('node:fs');
const path = require('node:path');

const url = new URL(process.argv[2]);
if (process.env.HOME) writeFileSync(path.join(process.env.HOME, 'browser-env.json'), JSON.stringify(Object.keys(process.env).sort()));
(async () => {
  const consent = await fetch(url, { redirect: 'manual' });
  const location = consent.headers.get('location');
  if (!location) throw new Error(`the authorization page answered HTTP ${consent.status} without a redirect`);
  await (await fetch(new URL(location, url))).text();
})().catch((error) => {
  process.stderr.write(`headless-browser: ${error.message}\n`);
  process.exitCode = 1;
});
