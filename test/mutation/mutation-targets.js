/**
 * What `npm run test:mutation` mutates and which unit specs it runs against the mutants
 * (docs/development.md, "Mutation testing"): the security- and rule-bearing modules whose unit
 * tests must notice a change in a rule. A module added here needs specs that reach it.
 */
const MUTATED_MODULES = [
  'src/auth/guessing-rules.ts',
  'src/config/trust-proxy.ts',
  'src/database/combined-statement.ts',
  'src/entitlements/effective-status.ts',
  'src/entitlements/entitlement-state.ts',
  'src/products/product-rules.ts',
  'src/rate-limiting/auth-failure-counter.ts',
];

const MUTATION_SPECS = [
  'test/unit/auth-failure-counter.spec.ts',
  'test/unit/client-address.spec.ts',
  'test/unit/combined-statement.spec.ts',
  'test/unit/effective-status.spec.ts',
  'test/unit/entitlement-state.spec.ts',
  'test/unit/guessing-rules.spec.ts',
  'test/unit/operation-plan.spec.ts',
  'test/unit/product-rules.spec.ts',
  'test/unit/trust-proxy.spec.ts',
];

module.exports = { MUTATED_MODULES, MUTATION_SPECS };
