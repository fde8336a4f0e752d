const path = require('node:path');
const nxPreset = require('@nx/jest/preset').default;

/** Shared Jest settings; every project's jest.config.js starts from this preset. */
module.exports = {
  ...nxPreset, // tsconfig-paths resolver and CommonJS export conditions (the MCP SDK loads its CJS build)
  testEnvironment: 'node', // the Nx preset defaults to jsdom
  // Inside the checkout, so clones never share transform caches.
  cacheDirectory: path.join(__dirname, 'node_modules/.cache/jest'),
  transform: {
    // tsconfig has isolatedModules: ts-jest transpiles per file; type errors are the typecheck target's job.
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  reporters: ['default', path.join(__dirname, 'tools/test/summary-reporter.js')],
};
