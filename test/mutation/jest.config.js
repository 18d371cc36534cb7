/**
 * The jest configuration Stryker runs (stryker.config.mjs): the unit project's settings, limited to
 * the unit specs that exercise the mutated modules, so each mutant is tried in seconds.
 */
const path = require('node:path');
const { MUTATION_SPECS } = require('./mutation-targets');

const rootDir = path.resolve(__dirname, '../..');

module.exports = {
  rootDir,
  testEnvironment: 'node',
  testMatch: MUTATION_SPECS.map((spec) => `<rootDir>/${spec}`),
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] },
};
