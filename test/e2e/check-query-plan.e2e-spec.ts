import { DataSource } from 'typeorm';
import { buildCheckQuery, Reference } from '../../src/entitlements/entitlement-check.query';
import { SWEEP_SQL } from '../../src/entitlements/entitlements.repository';
import { ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { createTestApp, TestApp, TestTenant } from '../support/test-app';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function scans(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(scans)];
}

/**
 * The access check is the hot path: over a table with many rows its exact query must be served
 * by indexes. Fails on any sequential scan of entitlements or customers.
 */
describe('access check query plan', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    tenant = await testApp.createTenant();
  });
  afterAll(async () => {
    // Its 20k rows would otherwise sit in the shared database for every later suite (a sweeper that
    // runs with a clock in the future expires them all).
    const dataSource = testApp.app.get(DataSource);
    await dataSource.query(`DELETE FROM entitlements WHERE merchant_id = $1 AND id LIKE 'ent_bulk_%'`, [tenant.merchantId]);
    await dataSource.query(`DELETE FROM customers WHERE merchant_id = $1 AND id LIKE 'cus_bulk_%'`, [tenant.merchantId]);
    await testApp.close();
  });

  it('uses indexes, never a Seq Scan, over 20k entitlements', async () => {
    const dataSource = testApp.app.get(DataSource);
    const products = [];
    for (let index = 0; index < 5; index += 1) products.push(await insertProduct(testApp, tenant.merchantId, 'test'));
    const entitlement = await grant(testApp, tenant.testKey, { store_customer_id: 'cust_plan', product_id: products[0].id });
    await dataSource.query(
      `INSERT INTO customers (id, merchant_id, mode, store_customer_id)
       SELECT 'cus_bulk_' || n, $1, CASE WHEN n % 2 = 0 THEN 'test' ELSE 'live' END, 'bulk_' || n FROM generate_series(1, 4000) AS n`,
      [tenant.merchantId],
    );
    await dataSource.query(
      `INSERT INTO entitlements (id, merchant_id, mode, customer_id, product_id, status, granted_at, expires_at, source)
       SELECT 'ent_bulk_' || n, $1, c.mode, c.id, ($2::text[])[1 + n % 5], CASE WHEN n % 10 = 0 THEN 'revoked' ELSE 'active' END,
              now(), CASE WHEN n % 3 = 0 THEN now() + interval '30 days' END, 'import'
       FROM generate_series(1, 20000) AS n
       JOIN customers c ON c.id = 'cus_bulk_' || (1 + n % 4000)`,
      [tenant.merchantId, products.map((product) => product.id)],
    );
    await dataSource.query('ANALYZE customers');
    await dataSource.query('ANALYZE products');
    await dataSource.query('ANALYZE entitlements');

    const tenantOf = { merchantId: tenant.merchantId, mode: 'test' as const };
    // bulk_2 is cus_bulk_2 (test mode), customer of n = 1, 4001, 8001, 12001, 16001 (1 + n % 4000 = 2), all to
    // products[1] (n % 5 = 1), none revoked (n % 10 ≠ 0); 8001 expires in 30 days (n % 3 = 0), the other four never.
    // Never-expiring wins, all granted in one statement, so the highest id decides: 'ent_bulk_4001'.
    const bulkAnswer = 'ent_bulk_4001';
    const combinations: [Reference, Reference, string][] = [
      [{ id: entitlement.customer_id as string }, { id: products[0].id }, entitlement.id],
      [{ storeId: 'cust_plan' }, { storeId: products[0].store_product_id as string }, entitlement.id],
      [{ id: entitlement.customer_id as string }, { storeId: products[0].store_product_id as string }, entitlement.id],
      [{ storeId: 'bulk_2' }, { id: products[1].id }, bulkAnswer],
    ];
    for (const [customer, product, expectedId] of combinations) {
      const { sql, parameters } = buildCheckQuery(tenantOf, customer, product, new Date());
      const [{ 'QUERY PLAN': plan }] = (await dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, parameters)) as {
        'QUERY PLAN': [{ Plan: PlanNode }];
      }[];
      const nodes = scans(plan[0].Plan);
      const sequential = nodes.filter((node) => node['Node Type'] === 'Seq Scan' && ['entitlements', 'customers'].includes(node['Relation Name'] ?? ''));
      expect({ customer, product, sequential }).toEqual({ customer, product, sequential: [] });
      expect(nodes.some((node) => node['Relation Name'] === 'entitlements' && /Index/.test(node['Node Type']))).toBe(true);
      // The statement itself answers correctly: exactly the entitlement that lasts longest.
      const rows = (await dataSource.query(sql, parameters)) as { id: string }[];
      expect({ customer, product, ids: rows.map((row) => row.id) }).toEqual({ customer, product, ids: [expectedId] });
    }
  });

  // The expiry sweep runs every EXPIRY_SWEEP_INTERVAL over the whole table: its two bounds are
  // served by the partial indexes (expires_at; the stored uses_ran_out, issue 39), never a Seq Scan.
  it("the expiry sweep's query uses the sweep indexes", async () => {
    const dataSource = testApp.app.get(DataSource);
    const [{ 'QUERY PLAN': plan }] = (await dataSource.query(`EXPLAIN (FORMAT JSON) ${SWEEP_SQL}`, [new Date().toISOString(), 200])) as {
      'QUERY PLAN': [{ Plan: PlanNode }];
    }[];
    const nodes = scans(plan[0].Plan);
    expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan')).toEqual([]);
    const indexes = nodes.map((node) => (node as PlanNode & { 'Index Name'?: string })['Index Name']).filter((name) => name !== undefined);
    expect(indexes.sort()).toEqual(['entitlements_sweep_expires_idx', 'entitlements_sweep_usage_idx']);
  });
});
