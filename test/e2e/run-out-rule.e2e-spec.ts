import { DataSource } from 'typeorm';
import { boundReached, boundReachedSql, dueSql, hasRunOut, notRunOutSql, RunOutBound, RunOutFields, runOutSql } from '../../src/entitlements/effective-status';
import { createTestApp, TestApp } from '../support/test-app';

const NOW = new Date('2027-03-01T12:00:00.000Z');
const at = (offsetMilliseconds: number) => new Date(NOW.getTime() + offsetMilliseconds);

/** Each bound on its own, at, before and past its edge, and both together. */
const CASES: Array<[string, RunOutFields]> = [
  ['no bounds', { expires_at: null, usage_count: 0, usage_limit: null }],
  ['no bounds, many uses', { expires_at: null, usage_count: 2_147_483_647, usage_limit: null }],
  ['expires later', { expires_at: at(1), usage_count: 0, usage_limit: null }],
  ['expires at this instant', { expires_at: at(0), usage_count: 0, usage_limit: null }],
  ['expired before', { expires_at: at(-1), usage_count: 0, usage_limit: null }],
  ['uses left', { expires_at: null, usage_count: 2, usage_limit: 3 }],
  ['last use taken', { expires_at: null, usage_count: 3, usage_limit: 3 }],
  ['past the limit', { expires_at: null, usage_count: 4, usage_limit: 3 }],
  ['limit zero', { expires_at: null, usage_count: 0, usage_limit: 0 }],
  ['time left, uses gone', { expires_at: at(60_000), usage_count: 5, usage_limit: 5 }],
  ['uses left, time gone', { expires_at: at(-60_000), usage_count: 1, usage_limit: 5 }],
  ['both gone', { expires_at: at(-60_000), usage_count: 5, usage_limit: 5 }],
  ['both left', { expires_at: at(60_000), usage_count: 1, usage_limit: 5 }],
];

/**
 * One rule, two forms: "ran out" is defined once (RUN_OUT_BOUNDS) and both its TypeScript predicate
 * and its SQL fragments are derived from it. This evaluates every form on a table of cases, the SQL
 * by PostgreSQL itself, and requires them to agree.
 */
describe('"ran out": the TypeScript predicate and the SQL agree on every case', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it.each(CASES)('%s', async (_name, fields) => {
    const bounds: RunOutBound[] = ['time', 'uses'];
    const [row] = await testApp.app.get(DataSource).query(
      `SELECT ${runOutSql('e', '$4')} AS run_out, ${notRunOutSql('e', '$4')} AS not_run_out,
              ${bounds.map((bound) => `(${boundReachedSql(bound, 'e', '$4')}) AS ${bound}`).join(', ')}
         FROM (SELECT $1::timestamptz AS expires_at, $2::int AS usage_count, $3::int AS usage_limit) e`,
      [fields.expires_at?.toISOString() ?? null, fields.usage_count, fields.usage_limit, NOW.toISOString()],
    );
    const typescript = { run_out: hasRunOut(fields, NOW), time: boundReached('time', fields, NOW), uses: boundReached('uses', fields, NOW) };
    expect({ run_out: row.run_out, time: row.time, uses: row.uses }).toEqual(typescript);
    expect(row.not_run_out).toBe(!typescript.run_out);
  });

  // The sweeper's form reads the stored uses_ran_out, which PostgreSQL computes on write: evaluated
  // on a row written into a copy of the real table (its generated column included), it must agree too.
  it.each(CASES)('the sweeper\'s form on a stored row: %s', async (_name, fields) => {
    const runner = testApp.app.get(DataSource).createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query('CREATE TEMPORARY TABLE run_out_cases (LIKE entitlements INCLUDING DEFAULTS INCLUDING GENERATED) ON COMMIT DROP');
      await runner.query(
        `INSERT INTO run_out_cases (id, merchant_id, mode, customer_id, product_id, status, granted_at, source, expires_at, usage_count, usage_limit)
         VALUES ('ent_case', 'mer_case', 'live', 'cus_case', 'prod_case', 'active', $4, 'api', $1, $2, $3)`,
        [fields.expires_at?.toISOString() ?? null, fields.usage_count, fields.usage_limit, NOW.toISOString()],
      );
      const [row] = await runner.query(`SELECT ${dueSql('e', '$1')} AS due, e.uses_ran_out FROM run_out_cases e`, [NOW.toISOString()]);
      expect({ due: row.due, uses_ran_out: row.uses_ran_out }).toEqual({ due: hasRunOut(fields, NOW), uses_ran_out: boundReached('uses', fields, NOW) });
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
