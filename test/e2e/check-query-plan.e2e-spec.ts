import { DataSource } from 'typeorm';
import { buildCheckQuery, Reference } from '../../src/entitlements/entitlement-check.query';
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
  afterAll(() => testApp.close());

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
    const combinations: [Reference, Reference][] = [
      [{ id: entitlement.customer_id as string }, { id: products[0].id }],
      [{ storeId: 'cust_plan' }, { storeId: products[0].store_product_id as string }],
      [{ id: entitlement.customer_id as string }, { storeId: products[0].store_product_id as string }],
      [{ storeId: 'bulk_2' }, { id: products[1].id }],
    ];
    for (const [customer, product] of combinations) {
      const { sql, parameters } = buildCheckQuery(tenantOf, customer, product, new Date());
      const [{ 'QUERY PLAN': plan }] = (await dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, parameters)) as {
        'QUERY PLAN': [{ Plan: PlanNode }];
      }[];
      const nodes = scans(plan[0].Plan);
      const sequential = nodes.filter((node) => node['Node Type'] === 'Seq Scan' && ['entitlements', 'customers'].includes(node['Relation Name'] ?? ''));
      expect({ customer, product, sequential }).toEqual({ customer, product, sequential: [] });
      expect(nodes.some((node) => node['Relation Name'] === 'entitlements' && /Index/.test(node['Node Type']))).toBe(true);
      // The statement itself still answers correctly.
      expect(await dataSource.query(sql, parameters)).toBeDefined();
    }
  });
});
