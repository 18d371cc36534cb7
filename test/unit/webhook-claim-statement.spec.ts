import { CLAIM_SQL, lockAndClaimSql } from '../../src/webhooks/webhook-deliveries.repository';

/**
 * The dispatcher's claim behind a transaction pooler (DESIGN §15): with DATABASE_PREPARED_STATEMENTS=false
 * it must not EXECUTE a statement PREPAREd on a connection the pooler may not give it again, so the
 * claim's whole text goes in the lock's round trip, its four bounds inlined as integers.
 */
describe("the webhook dispatcher's claim statement", () => {
  const bounds = { limit: 50, leaseMilliseconds: 30_000, endpointConcurrency: 10, window: 200 };

  it('executes the prepared claim when prepared statements are on', () => {
    expect(lockAndClaimSql(bounds, true)).toMatch(/^SELECT pg_advisory_xact_lock\(\d+\); EXECUTE webhook_claim_deliveries \(50, 30000, 10, 200\)$/);
  });

  it('sends the claim whole, with no parameter and no EXECUTE, when they are off', () => {
    const sql = lockAndClaimSql(bounds, false);
    expect(sql.startsWith('SELECT pg_advisory_xact_lock(')).toBe(true);
    expect(sql).not.toMatch(/\$\d|EXECUTE|PREPARE/);
    expect(sql).toContain('LIMIT (50)::int');
    expect(sql).toContain('(30000)::int * interval');
    expect(sql).toContain('(10)::int - (SELECT count(*)');
    expect(sql).toContain('LIMIT (200)::int');
    expect(sql.length).toBeGreaterThan(CLAIM_SQL.length);
  });

  it('refuses a bound that is not a non-negative integer, prepared or not', () => {
    for (const prepared of [true, false]) {
      expect(() => lockAndClaimSql({ ...bounds, limit: 1.5 }, prepared)).toThrow('not a non-negative integer');
      expect(() => lockAndClaimSql({ ...bounds, window: -1 }, prepared)).toThrow('not a non-negative integer');
    }
  });
});
