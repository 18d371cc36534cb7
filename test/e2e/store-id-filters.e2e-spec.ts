import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Store-id filters take a prefix everywhere (issue 34 item 4): `store_customer_id` on the
 * entitlements, orders and subscriptions lists, as `search` on customers; one rule
 * (src/database/like-pattern.ts), so `%` and `_` are plain characters and case matters.
 */
describe('store-id prefix filters', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  const key = () => bearer(tenant.testKey);
  const storeIdsOf = async (path: string, query: Record<string, string>, as = key()): Promise<string[]> =>
    ((await testApp.http.get(path).query(query).set(as).expect(200)).body.data as Array<{ store_customer_id: string }>).map((row) => row.store_customer_id).sort();
  const BUYERS = ['pre_ada', 'pre_adam', 'pre_bob', 'pre%_x', 'preXYx', 'PRE_ada'];

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
    const book = (await testApp.http.post('/v1/products').set(key()).send({ name: 'Prefixed book', entitlement_type: 'permanent' }).expect(201)).body.data;
    const plan = (await testApp.http.post('/v1/products').set(key()).send({ name: 'Prefixed plan', entitlement_type: 'subscription_linked' }).expect(201)).body.data;
    for (const [index, buyer] of BUYERS.entries()) {
      await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: buyer, product_id: book.id }).expect(201);
      await testApp.http
        .post('/v1/orders')
        .set(key())
        .send({ store_order_id: `pre_order_${index}`, store_customer_id: buyer, line_items: [{ store_line_item_id: 'l1', product_id: book.id }] })
        .expect(201);
      await testApp.http.put(`/v1/subscriptions/store/pre_sub_${index}`).set(key()).send({ store_customer_id: buyer, product_id: plan.id, status: 'active' }).expect(201);
    }
    const othersBook = (await testApp.http.post('/v1/products').set(bearer(other.testKey)).send({ name: 'Other', entitlement_type: 'permanent' }).expect(201)).body.data;
    await testApp.http.post('/v1/entitlements').set(bearer(other.testKey)).send({ store_customer_id: 'pre_other', product_id: othersBook.id }).expect(201);
  });
  afterAll(() => testApp.close());

  it.each(['/v1/entitlements', '/v1/orders', '/v1/subscriptions'])('%s filters by the start of the store customer id', async (path) => {
    // Subscriptions' own entitlements are granted too: count rows, not customers.
    const forBuyers = async (prefix: string) => [...new Set(await storeIdsOf(path, { store_customer_id: prefix }))];
    expect(await forBuyers('pre_ad')).toEqual(['pre_ada', 'pre_adam']);
    expect(await forBuyers('pre_ada')).toEqual(['pre_ada', 'pre_adam']);
    expect(await forBuyers('pre_adam')).toEqual(['pre_adam']);
    expect(await forBuyers('pre_')).toEqual(['pre_ada', 'pre_adam', 'pre_bob']);
    expect(await forBuyers('pre%')).toEqual(['pre%_x']);
    expect(await forBuyers('pre%_')).toEqual(['pre%_x']);
    expect(await forBuyers('%')).toEqual([]);
    expect(await forBuyers('_')).toEqual([]);
    expect(await forBuyers('PRE')).toEqual(['PRE_ada']);
    expect(await forBuyers('nobody')).toEqual([]);
    // Another merchant's customer with the same prefix is never among them, nor the other mode's.
    expect(await forBuyers('pre_o')).toEqual([]);
    expect(await storeIdsOf(path, { store_customer_id: 'pre_' }, bearer(tenant.liveKey))).toEqual([]);
  });

  it('keeps the total and the pages of a prefix-filtered list', async () => {
    const first = await testApp.http.get('/v1/orders').query({ store_customer_id: 'pre_', limit: '2' }).set(key()).expect(200);
    expect(first.body.pagination).toMatchObject({ total: 3, has_more: true });
    const second = await testApp.http.get('/v1/orders').query({ store_customer_id: 'pre_', limit: '2', cursor: first.body.pagination.next_cursor }).set(key()).expect(200);
    expect(second.body.data).toHaveLength(1);
    expect(second.body.pagination.has_more).toBe(false);
  });

  it('still combines a customer id with a store id prefix (both must hold)', async () => {
    const ada = (await testApp.http.get('/v1/customers').query({ search: 'pre_ada' }).set(key()).expect(200)).body.data.find((row: { store_customer_id: string }) => row.store_customer_id === 'pre_ada');
    expect(await storeIdsOf('/v1/orders', { customer_id: ada.id, store_customer_id: 'pre_' })).toEqual(['pre_ada']);
    expect(await storeIdsOf('/v1/orders', { customer_id: ada.id, store_customer_id: 'pre_b' })).toEqual([]);
    expect(await storeIdsOf('/v1/entitlements', { customer_id: ada.id, store_customer_id: 'pre_b' })).toEqual([]);
    expect(await storeIdsOf('/v1/orders', { customer_id: 'cus_nope' })).toEqual([]);
  });

  it('customers: the search is a store id prefix by the same rule', async () => {
    expect(await storeIdsOf('/v1/customers', { search: 'pre_ad' })).toEqual(['pre_ada', 'pre_adam']);
    expect(await storeIdsOf('/v1/customers', { search: 'pre%' })).toEqual(['pre%_x']);
  });
});
