/** Unit tests for pure logic; e2e tests through the real AppModule and a real database. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] };

// The SDK's sources, so a suite needs no SDK build first (the package itself ships sdk/dist).
const sdkSources = { '^@entitlement-delivery/sdk$': '<rootDir>/sdk/src/index.ts' };

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/unit/**/*.spec.ts'],
      transform,
      moduleNameMapper: sdkSources,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      transform,
      moduleNameMapper: sdkSources,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/setup-environment.ts'],
    },
  ],
};
