import type { Config } from 'jest';

const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const config: Config = {
  testEnvironment: 'node',
  // jose is ESM only: its files are compiled to CommonJS like the tests (Node 20 runs it natively).
  transform: { '^.+\\.ts$': swc as never, '/node_modules/jose/.+\\.js$': swc as never },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  testMatch: [
    '<rootDir>/test/**/*.spec.ts',
    '<rootDir>/packages/*/test/**/*.spec.ts',
    '<rootDir>/apps/*/test/**/*.spec.ts',
    '<rootDir>/apps/examples/*/test/**/*.spec.ts',
  ],
  moduleNameMapper: {
    '^@typemcp/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@typemcp/([a-z-]+)/internal$': '<rootDir>/packages/$1/src/internal.ts',
    '^@typemcp/http/(fetch|fastify)$': '<rootDir>/packages/http/src/$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 20000,
  // With two cores jest runs every suite inside jest's own process (in band): one handle a suite leaves
  // open would keep it from exiting (CI once hung so until its time ran out). The teardown names
  // any such handle on stderr; forceExit then ends the run.
  globalTeardown: '<rootDir>/test/support/open-handles.teardown.ts',
  forceExit: true,
};

export default config;
