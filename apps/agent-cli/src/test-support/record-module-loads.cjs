// Preload for process tests (`node --require <this file>`): when the process exits, writes the files its
// CommonJS loader loaded (the keys of require.cache) as JSON to the file named by MODULE_LOAD_RECORD.
const { writeFileSync } = require('node:fs');

process.on('exit', () => writeFileSync(process.env.MODULE_LOAD_RECORD, JSON.stringify(Object.keys(require.cache))));
