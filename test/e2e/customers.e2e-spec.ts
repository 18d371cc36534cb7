import { DataSource } from 'typeorm';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

interface Customer {
  id: string;
  store_customer_id: string;
  created_at: string;
}

/** GET /v1/customers (search, dates, pages) and the customer record by id and by store id. */
describe('customers', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  /** In creation order. */
  const customers: Customer[] = [];
  const STORE_IDS = ['store_cust_1001', 'store_cust_1002', 'store_cust_2001', 'a%b_c', 'abcd', 'A_b'];

  const list = (query: Record<string, string>, key = tenant.testKey) => testApp.http.get('/v1/customers').query(query).set(bearer(key));
  const storeIdsOf = (body: { data: Customer[] }) => body.data.map((customer) => customer.store_customer_id);

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
    const product = await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 'Book', entitlement_type: 'permanent' }).expect(201);
    for (const storeId of STORE_IDS) {
      const granted = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ store_customer_id: storeId, product_id: product.body.data.id }).expect(201);
      const customer = await testApp.http.get(`/v1/customers/${granted.body.data.customer_id}`).set(bearer(tenant.testKey)).expect(200);
      customers.push(customer.body.data);
    }
    // Same store id in the other mode and at another merchant: never listed here.
    const liveProduct = await testApp.http.post('/v1/products').set(bearer(tenant.liveKey)).send({ name: 'Book', entitlement_type: 'permanent' }).expect(201);
    await testApp.http.post('/v1/entitlements').set(bearer(tenant.liveKey)).send({ store_customer_id: 'store_cust_1001', product_id: liveProduct.body.data.id }).expect(201);
    const theirProduct = await testApp.http.post('/v1/products').set(bearer(other.testKey)).send({ name: 'Book', entitlement_type: 'permanent' }).expect(201);
    await testApp.http.post('/v1/entitlements').set(bearer(other.testKey)).send({ store_customer_id: 'store_cust_1001', product_id: theirProduct.body.data.id }).expect(201);
  });
  afterAll(() => testApp.close());

  it('reads a customer by id and by store id, in exactly the record shape', async () => {
    const [first] = customers;
    expect(first).toEqual({ id: expect.stringMatching(/^cus_/), store_customer_id: 'store_cust_1001', test_clock: null, created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
    const byStoreId = await testApp.http.get('/v1/customers/store/store_cust_1001').set(bearer(tenant.testKey)).expect(200);
    expect(byStoreId.body.data).toEqual(first);
    // Store ids with URL-special characters travel encoded.
    const escaped = await testApp.http.get(`/v1/customers/store/${encodeURIComponent('a%b_c')}`).set(bearer(tenant.testKey)).expect(200);
    expect(escaped.body.data.id).toBe(customers[3].id);
  });

  it('answers 404 CUSTOMER_NOT_FOUND for unknown, malformed, other-mode and other-merchant customers', async () => {
    const [first] = customers;
    for (const path of ['/v1/customers/cus_01jd8x3k2m4n5p6q7r8s9t0v1w', '/v1/customers/not-an-id', '/v1/customers/store/nobody', '/v1/customers/store']) {
      const missing = await testApp.http.get(path).set(bearer(tenant.testKey)).expect(404);
      expect(missing.body.error).toMatchObject({ code: 'CUSTOMER_NOT_FOUND', type: 'not_found_error' });
    }
    await testApp.http.get(`/v1/customers/${first.id}`).set(bearer(tenant.liveKey)).expect(404);
    await testApp.http.get(`/v1/customers/${first.id}`).set(bearer(other.testKey)).expect(404);
    // The live customer with the same store id is another record.
    const live = await testApp.http.get('/v1/customers/store/store_cust_1001').set(bearer(tenant.liveKey)).expect(200);
    expect(live.body.data.id).not.toBe(first.id);
  });

  it('lists newest first with the total, page by page', async () => {
    const all = await list({}).expect(200);
    expect(storeIdsOf(all.body)).toEqual([...STORE_IDS].reverse());
    expect(all.body.pagination).toEqual({ total: STORE_IDS.length, limit: 25, has_more: false, next_cursor: null });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = cursor ? { limit: '4', cursor } : { limit: '4' };
      const page = await list(query).expect(200);
      expect(page.body.pagination.total).toBe(STORE_IDS.length);
      seen.push(...storeIdsOf(page.body));
      cursor = page.body.pagination.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...STORE_IDS].reverse());
    const live = await list({}, tenant.liveKey).expect(200);
    expect(storeIdsOf(live.body)).toEqual(['store_cust_1001']);
  });

  it('searches by exact id or store id prefix, with LIKE wildcards taken literally', async () => {
    const prefix = await list({ search: 'store_cust_10' }).expect(200);
    expect(storeIdsOf(prefix.body)).toEqual(['store_cust_1002', 'store_cust_1001']);
    expect(prefix.body.pagination.total).toBe(2);
    const byId = await list({ search: customers[2].id }).expect(200);
    expect(storeIdsOf(byId.body)).toEqual(['store_cust_2001']);
    // % and _ match themselves only: 'a%' is not "a then anything", '_' is not "any one character".
    expect(storeIdsOf((await list({ search: 'a%' }).expect(200)).body)).toEqual(['a%b_c']);
    expect(storeIdsOf((await list({ search: 'A_' }).expect(200)).body)).toEqual(['A_b']);
    expect(storeIdsOf((await list({ search: '_' }).expect(200)).body)).toEqual([]);
    // Case-sensitive, like store ids themselves.
    expect(storeIdsOf((await list({ search: 'STORE_' }).expect(200)).body)).toEqual([]);
    // Another merchant's customer id finds nothing.
    const theirs = await testApp.http.get('/v1/customers/store/store_cust_1001').set(bearer(other.testKey)).expect(200);
    expect((await list({ search: theirs.body.data.id }).expect(200)).body.data).toEqual([]);
  });

  it('filters by creation time with exclusive bounds, combined with search and pages', async () => {
    const middle = customers[2];
    const after = await list({ created_after: middle.created_at }).expect(200);
    expect(storeIdsOf(after.body)).toEqual(customers.filter((customer) => customer.created_at > middle.created_at).map((customer) => customer.store_customer_id).reverse());
    const before = await list({ created_before: middle.created_at, search: 'store_cust_' }).expect(200);
    expect(storeIdsOf(before.body)).toEqual(customers.filter((customer) => customer.created_at < middle.created_at).map((customer) => customer.store_customer_id).reverse());
    const none = await list({ created_after: '2999-01-01T00:00:00Z' }).expect(200);
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0, has_more: false } });
  });

  it('refuses bad parameters and keys without customers:read', async () => {
    const refusedQueries: Array<Record<string, string>> = [{ created_after: 'yesterday' }, { created_before: '2026-02-30T00:00:00Z' }, { search: '' }, { search: 'x'.repeat(256) }, { limit: '0' }, { cursor: 'forged' }, { status: 'active' }];
    for (const query of refusedQueries) {
      const refused = await list(query).expect(400);
      expect(refused.body.error.code).toBe('INVALID_PARAMETER');
    }
    const reader = await testApp.createKey(tenant.merchantId, 'test', ['products:read']);
    for (const path of ['/v1/customers', `/v1/customers/${customers[0].id}`, '/v1/customers/store/store_cust_1001']) {
      const forbidden = await testApp.http.get(path).set(bearer(reader)).expect(403);
      expect(forbidden.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
      expect(forbidden.body.error.message).toContain('customers:read');
    }
  });

  it('finds store ids by prefix through an index, not a scan of the merchant\'s customers', async () => {
    const dataSource = testApp.app.get(DataSource);
    const bulk = await testApp.createTenant();
    await dataSource.query(
      `INSERT INTO customers (id, merchant_id, mode, store_customer_id)
       SELECT 'cus_prefix_' || n, $1, 'test', 'shop_' || n FROM generate_series(1, 5000) AS n`,
      [bulk.merchantId],
    );
    await dataSource.query('ANALYZE customers');
    try {
      const found = await list({ search: 'shop_4999' }, bulk.testKey).expect(200);
      expect(storeIdsOf(found.body)).toEqual(['shop_4999']);
      const plan: Array<{ 'QUERY PLAN': unknown }> = await dataSource.query(
        `EXPLAIN (FORMAT JSON) SELECT id FROM customers customer
         WHERE customer.merchant_id = $1 AND customer.mode = 'test' AND (customer.id = $2 OR customer.store_customer_id LIKE $3)
         ORDER BY customer.created_at DESC, customer.id DESC LIMIT 26`,
        [bulk.merchantId, 'shop_49', 'shop\\_49%'],
      );
      expect(JSON.stringify(plan)).not.toContain('Seq Scan');
    } finally {
      await dataSource.query(`DELETE FROM customers WHERE merchant_id = $1`, [bulk.merchantId]);
    }
  });
});
