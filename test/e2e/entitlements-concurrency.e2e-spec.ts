import { DataSource } from 'typeorm';
import { generateId } from '../../src/ids/id';
import { ProductEntity } from '../../src/products/product.entity';
import { ENTITLEMENT_TEST_OVERRIDES, countEvents, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

describe('entitlements: concurrency and cursor pagination', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let product: ProductEntity;

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    tenant = await testApp.createTenant();
    product = await insertProduct(testApp, tenant.merchantId, 'test');
  });
  afterAll(() => testApp.close());

  it('20 simultaneous revokes: exactly one succeeds and one entitlement.revoked event is recorded', async () => {
    const { id } = await grant(testApp, tenant.testKey, { store_customer_id: 'cust_race', product_id: product.id });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => testApp.http.post(`/v1/entitlements/${id}/revoke`).set(bearer(tenant.testKey)).send({ reason: 'race' })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(await countEvents(testApp, 'entitlement.revoked', id)).toBe(1);
  });

  it('20 simultaneous uses of a 5-use entitlement: exactly 5 succeed', async () => {
    const { id } = await grant(testApp, tenant.testKey, { store_customer_id: 'cust_mixed', product_id: product.id, usage_limit: 5 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => testApp.http.post(`/v1/entitlements/${id}/usage`).set(bearer(tenant.testKey)).send({})),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(5);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(15);
    const after = await testApp.http.get(`/v1/entitlements/${id}`).set(bearer(tenant.testKey)).expect(200);
    expect(after.body.data).toMatchObject({ usage_count: 5, status: 'expired' });
    expect(await countEvents(testApp, 'entitlement.updated', id)).toBe(5);
  });

  it('20 simultaneous grants for a new store customer create exactly one customer', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ store_customer_id: 'cust_new_race', product_id: product.id }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    expect(new Set(responses.map((response) => response.body.data.customer_id)).size).toBe(1);
    const rows: { count: string }[] = await testApp.app
      .get(DataSource)
      .query(`SELECT count(*)::text AS count FROM customers WHERE merchant_id = $1 AND store_customer_id = 'cust_new_race'`, [tenant.merchantId]);
    expect(rows[0].count).toBe('1');
  });

  it('a cursor walk returns every row exactly once while rows are inserted between pages', async () => {
    const { customer_id: customerId } = await grant(testApp, tenant.testKey, { store_customer_id: 'cust_walk', product_id: product.id });
    // Bulk rows, many sharing one created_at, so ties on the sort column are exercised.
    const ids = Array.from({ length: 300 }, () => generateId('ent'));
    await testApp.app.get(DataSource).query(
      `INSERT INTO entitlements (id, merchant_id, mode, customer_id, product_id, status, granted_at, source, created_at)
       SELECT id, $1, 'test', $2, $3, 'active', now(), 'import', now() - ((ordinality % 7) * interval '1 millisecond')
       FROM unnest($4::text[]) WITH ORDINALITY AS t(id, ordinality)`,
      [tenant.merchantId, customerId, product.id, ids],
    );
    const expected = new Set([...ids]);
    for (const route of [`/v1/entitlements?customer_id=${customerId}&limit=37`, `/v1/customers/${customerId}/entitlements?limit=37`]) {
      const before: { count: string }[] = await testApp.app.get(DataSource).query('SELECT count(*)::text AS count FROM entitlements WHERE customer_id = $1', [customerId]);
      const initial = new Set<string>();
      const seen: string[] = [];
      let cursor: string | null = null;
      let inserted = 0;
      do {
        const url: string = cursor ? `${route}&cursor=${encodeURIComponent(cursor)}` : route;
        const response = await testApp.http
          .get(url)
          .set(bearer(tenant.testKey))
          .expect(200);
        expect(response.body.pagination.total).toBe(Number(before[0].count) + inserted);
        seen.push(...response.body.data.map((item: { id: string }) => item.id));
        cursor = response.body.pagination.next_cursor as string | null;
        await grant(testApp, tenant.testKey, { customer_id: customerId, product_id: product.id });
        inserted += 1;
      } while (cursor);
      for (const id of seen) initial.add(id);
      expect(seen.length).toBe(initial.size);
      expect(seen.length).toBe(Number(before[0].count));
      for (const id of expected) expect(initial.has(id)).toBe(true);
    }
  });
});
