#!/usr/bin/env node
// The root package's `agent-cli` bin (`npx agent-cli`). The CLI itself is the built bundle; this file is
// only the executable entry point that git keeps executable.
const fs = require('node:fs');
const path = require('node:path');

const main = path.join(__dirname, '..', '..', 'dist', 'apps', 'agent-cli', 'main.js');
if (!fs.existsSync(main)) {
  process.stderr.write('agent-cli is not built yet: run "npx nx build agent-cli" first.\n');
  process.exit(1);
}
require(main);
