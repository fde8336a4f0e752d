// Preloaded into the gateway by run.mjs (`--require`) for its promises-per-call pass only: counts the
// promises V8 makes (async_hooks' PROMISE resources; with a hook on, V8 also makes one for each `await`, so
// an await counts as one) and writes the count so far as `promises=<n>` to standard output on SIGUSR2. The
// hook slows the process down, so this pass measures no time and no garbage.
const { createHook } = require('node:async_hooks');

let promises = 0;
createHook({
  init(_id, type) {
    if (type === 'PROMISE') promises += 1;
  },
}).enable();
process.on('SIGUSR2', () => process.stdout.write(`promises=${promises}\n`));
