/**
 * Unit tests for pure logic; e2e tests through the real AppModule and a real database.
 *
 * Suites run in parallel workers: each e2e suite creates its own merchants, every embedded test app
 * has a database of its own, and with TEST_DATABASE_URL each worker gets a database of its own
 * (test/support/global-setup.ts), so suites in different workers share nothing. TEST_WORKERS sets
 * how many (default 3: suites spend much of their time waiting on timers, sockets and child
 * processes, so a third worker still gains on this project's 2-core machine).
 *
 * Scale tests (several instances behind a real nginx through PgBouncer, both adapters mixed; a read
 * replica; a million rows) need PostgreSQL, Redis, nginx, pgbouncer and PostgreSQL's server binaries. `npm test` runs them too; .ci/run runs the scale project once, apart
 * from its two per-adapter runs, which EH_SCALE_TESTS=apart leaves it out of.
 */
const scaleApart = process.env.EH_SCALE_TESTS === 'apart';
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] };

// The SDK's sources, so a suite needs no SDK build first (the package itself ships sdk/dist).
const sdkSources = { '^@entitlement-delivery/sdk$': '<rootDir>/sdk/src/index.ts' };

module.exports = {
  // Generous: on a shared, loaded machine a suite's first app can take a minute to start; a hang still fails.
  testTimeout: 120000,
  maxWorkers: Number(process.env.TEST_WORKERS) || 3,
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
      // Builds what suites need when it is missing or stale, and prepares the databases.
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/setup-environment.ts'],
    },
    !scaleApart && {
      displayName: 'scale',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/scale/**/*.scale-spec.ts'],
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['<rootDir>/test/support/setup-environment.ts'],
    },
  ].filter(Boolean),
};
