/**
 * Unit tests for pure logic; e2e tests through the real AppModule and a real database; scale tests
 * (several instances behind a real nginx, a million rows) that need PostgreSQL, Redis and nginx and
 * don't depend on the HTTP adapter of the run (.ci/run runs them once, apart from the two e2e runs).
 */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] };

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/unit/**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      transform,
      // The SDK's sources, so a suite needs no SDK build first (the package itself ships sdk/dist).
      moduleNameMapper: { '^@entitlement-delivery/sdk$': '<rootDir>/sdk/src/index.ts' },
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/setup-environment.ts'],
    },
    {
      displayName: 'scale',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/scale/**/*.scale-spec.ts'],
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/setup-environment.ts'],
    },
  ],
};
