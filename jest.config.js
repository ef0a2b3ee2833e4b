// Jest in ESM mode: NestJS 12 and jose 6 are ESM-only, and jest on Node 20 cannot require() ESM.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

// ESM-only packages that CommonJS dependencies require() (light-my-request → cookie@2,
// @fastify/static → content-disposition@2): jest on Node 20 can load them only transpiled.
const ESM_REQUIRED_BY_CJS = ['cookie', 'content-disposition'].join('|');

export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(e2e-)?spec\\.ts$',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    [`/node_modules/(${ESM_REQUIRED_BY_CJS})/.+\\.js$`]: ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_REQUIRED_BY_CJS})/)`],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // A hang must fail the test, not eat CI's budget (Fastify + supertest hang without ready()); 60 s leaves
  // room for the embedded-database fallback, which boots each app on a fresh PGlite (about 10 s loaded).
  testTimeout: 60_000,
  maxWorkers: 2,
  // Each ESM test file leaves its modules in the worker (jest's vm contexts): a worker that ran half the
  // suite held 4.4 GB, and its long collections let a 3 s PostgreSQL connect time out in late files.
  // A worker past 1.5 GB after a file is replaced by a fresh one.
  workerIdleMemoryLimit: '1.5GB',
};
