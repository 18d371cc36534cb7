/** Unit tests for pure logic; e2e tests through the real AppModule and a real database. */
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
  ],
};
