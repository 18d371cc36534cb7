// Mutation testing of the security- and rule-bearing modules (docs/development.md, "Mutation
// testing"): `npm run test:mutation`. The modules and the unit specs run against their mutants are
// listed in test/mutation/mutation-targets.js.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { MUTATED_MODULES } = require('./test/mutation/mutation-targets.js');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  jest: { projectType: 'custom', configFile: 'test/mutation/jest.config.js', enableFindRelatedTests: false },
  mutate: MUTATED_MODULES,
  // Each mutant runs only the tests that reached its code in the first run.
  coverageAnalysis: 'perTest',
  // The machine is shared (docs/development.md): two test processes at most.
  concurrency: 2,
  // json: test/mutation/check-scores.js holds each file to 80 % from it.
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Generous: on a loaded machine a slow run must not count as a mutant killed by a time-out.
  timeoutMS: 30_000,
  thresholds: { high: 90, low: 80, break: 80 },
  // The sandbox needs the sources, the unit tests and the build configuration, not the rest.
  ignorePatterns: ['dashboard', 'sdk', 'bench', 'docs', 'deploy', 'scripts', 'test/e2e', 'test/scale', 'test/artifacts', 'reports', 'data', 'dist'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
