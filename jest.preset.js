const path = require('node:path');
const nxPreset = require('@nx/jest/preset').default;

/**
 * got 14 (the design's HTTP client, used by the registry) and its dependencies ship only ES modules,
 * which Jest on Node 20 cannot require; ts-jest transpiles them to CommonJS. Node itself loads them fine.
 */
const ESM_ONLY_PACKAGES = [
  'got',
  '@sindresorhus/is',
  'byte-counter',
  'cacheable-lookup',
  'cacheable-request',
  'get-stream',
  '@sec-ant/readable-stream',
  'is-stream',
  'keyv',
  '@keyv/serialize',
  'mimic-response',
  'normalize-url',
  'responselike',
  'lowercase-keys',
  'decompress-response',
  'form-data-encoder',
  'p-cancelable',
  // The gateway's redaction interceptor's detectors (ADR 0027): ES modules only (@redactpii/node's `require` export too).
  '@secretlint',
  '@redactpii',
];
/**
 * The OTLP exporters' transport loads node:http with `import()`, which Jest's module sandbox cannot run
 * without ES module support; transpiled to CommonJS it is a `require`, so an in-process gateway exports to a
 * test's OTLP receiver (ADR 0030).
 */
const DYNAMIC_IMPORT_PACKAGES = ['@opentelemetry/otlp-exporter-base'];

/** Shared Jest settings; every project's jest.config.js starts from this preset. */
module.exports = {
  ...nxPreset, // tsconfig-paths resolver and CommonJS export conditions (the MCP SDK loads its CJS build)
  testEnvironment: 'node', // the Nx preset defaults to jsdom
  // Many tests start real processes (built apps, npm MCP servers, redis-server). On a loaded two-core CI
  // machine Jest's 5 s default failed seven of them; a test that needs less still finishes at once, and
  // none asserts a timing. A test or hook names its own timeout only when it needs more than this one.
  testTimeout: 60_000,
  // How many `it.concurrent` tests of a file run at once: each starts processes of its own, and two cores
  // are shared with the other project's tests.
  maxConcurrency: 2,
  // Inside the checkout, so clones never share transform caches.
  cacheDirectory: path.join(__dirname, 'node_modules/.cache/jest'),
  transform: {
    // tsconfig has isolatedModules: ts-jest transpiles per file; type errors are the typecheck target's job.
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${[...ESM_ONLY_PACKAGES, ...DYNAMIC_IMPORT_PACKAGES].join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  reporters: ['default', path.join(__dirname, 'tools/test/summary-reporter.js')],
};
