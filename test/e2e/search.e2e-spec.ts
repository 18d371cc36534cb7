import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

interface SearchResult {
  object: string;
  id: string;
  label: string;
  store_id: string | null;
  created_at: string;
}

/**
 * GET /v1/search (issue 34 item 4): any id or the start of a store id, across customers,
 * entitlements, products, orders, subscriptions, files and events; in the caller's merchant and
 * mode only; each kind only for a caller that may read it; LIKE wildcards are plain characters.
 */
describe('search', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  const key = () => bearer(tenant.testKey);
  const search = async (q: string, as = key()): Promise<SearchResult[]> => (await testApp.http.get('/v1/search').query({ q }).set(as).expect(200)).body.data;
  const found = (results: SearchResult[]) => results.map((result) => [result.object, result.id]);

  let product: { id: string };
  let entitlement: { id: string; customer_id: string };
  let order: { id: string };
  let subscription: { id: string };
  let fileId: string;
  let eventId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
    product = (await testApp.http.post('/v1/products').set(key()).send({ name: 'Searchable book', store_product_id: 'find_sku_1', entitlement_type: 'permanent' }).expect(201)).body.data;
    const plan = (await testApp.http.post('/v1/products').set(key()).send({ name: 'Searchable plan', entitlement_type: 'subscription_linked' }).expect(201)).body.data;
    entitlement = (await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: 'find_buyer_1@example.com', product_id: product.id }).expect(201)).body.data;
    order = (
      await testApp.http
        .post('/v1/orders')
        .set(key())
        .send({ store_order_id: 'find_order_1', store_customer_id: 'find_buyer_2', line_items: [{ store_line_item_id: 'l1', product_id: product.id }] })
        .expect(201)
    ).body.data;
    subscription = (await testApp.http.put('/v1/subscriptions/store/find_sub_1').set(key()).send({ store_customer_id: 'find_buyer_3', product_id: plan.id, status: 'active' }).expect(201))
      .body.data;
    fileId = (await testApp.http.post('/v1/files/upload-url').set(key()).send({ file_name: 'found.pdf', file_size: 4, mime_type: 'application/pdf' }).expect(201)).body.data.file_id;
    eventId = (await testApp.http.get('/v1/events').query({ object_id: entitlement.id }).set(key()).expect(200)).body.data[0].id;
  });
  afterAll(() => testApp.close());

  it('finds each kind by its id, exactly', async () => {
    const byId: Array<[string, string]> = [
      ['customer', entitlement.customer_id],
      ['entitlement', entitlement.id],
      ['product', product.id],
      ['order', order.id],
      ['subscription', subscription.id],
      ['file', fileId],
      ['event', eventId],
    ];
    for (const [object, id] of byId) {
      const results = await search(id);
      expect(found(results)[0]).toEqual([object, id]);
      expect(results.filter((result) => result.id === id)).toHaveLength(1);
    }
    const [hit] = await search(entitlement.id);
    expect(hit.label).toBe('find_buyer_1@example.com · Searchable book');
    expect(hit.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // An id of the right form that names nothing, or a malformed one: nothing, not an error.
    expect(await search('ent_01jd8x3k2m4n5p6q7r8s9t0v1w')).toEqual([]);
    expect(await search('ent_nope')).toEqual([]);
  });

  it('finds customers, products, orders and subscriptions by the start of their store id (an email too)', async () => {
    expect(found(await search('find_buyer_1@ex'))).toEqual([['customer', entitlement.customer_id]]);
    expect((await search('find_buyer_1'))[0]).toMatchObject({ object: 'customer', label: 'find_buyer_1@example.com', store_id: 'find_buyer_1@example.com' });
    expect(found(await search('find_sku'))).toEqual([['product', product.id]]);
    expect((await search('find_sku'))[0]).toMatchObject({ label: 'Searchable book', store_id: 'find_sku_1' });
    expect(found(await search('find_order'))).toEqual([['order', order.id]]);
    expect(found(await search('find_sub'))).toEqual([['subscription', subscription.id]]);
    const buyers = found(await search('find_buyer_'));
    expect(buyers.map(([object]) => object)).toEqual(['customer', 'customer', 'customer']);
    // Case-sensitive, and a prefix, not a part.
    expect(await search('FIND_BUYER')).toEqual([]);
    expect(await search('buyer_1')).toEqual([]);
  });

  it('gives at most five records of a kind', async () => {
    for (let index = 0; index < 7; index += 1) {
      await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: `many_${index}`, product_id: product.id }).expect(201);
    }
    const results = await search('many_');
    expect(results.map((result) => result.store_id)).toEqual(['many_0', 'many_1', 'many_2', 'many_3', 'many_4']);
  });

  it('treats % and _ as plain characters', async () => {
    await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: '50%_off_buyer', product_id: product.id }).expect(201);
    await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: '50xyoff_buyer', product_id: product.id }).expect(201);
    expect((await search('50%_')).map((result) => result.store_id)).toEqual(['50%_off_buyer']);
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
    expect(await search('\\')).toEqual([]);
  });

  it("finds nothing of another merchant's or the other mode's", async () => {
    const otherEntitlement = (await testApp.http.post('/v1/products').set(bearer(other.testKey)).send({ name: 'Other', store_product_id: 'find_sku_other', entitlement_type: 'permanent' }).expect(201)).body.data;
    await testApp.http.post('/v1/entitlements').set(bearer(other.testKey)).send({ store_customer_id: 'find_buyer_other', product_id: otherEntitlement.id }).expect(201);
    const live = (await testApp.http.post('/v1/products').set(bearer(tenant.liveKey)).send({ name: 'Live', store_product_id: 'find_sku_live', entitlement_type: 'permanent' }).expect(201)).body.data;
    await testApp.http.post('/v1/entitlements').set(bearer(tenant.liveKey)).send({ store_customer_id: 'find_buyer_live', product_id: live.id }).expect(201);

    expect(found(await search('find_sku'))).toEqual([['product', product.id]]);
    expect((await search('find_buyer_')).map((result) => result.store_id)).not.toEqual(expect.arrayContaining(['find_buyer_other', 'find_buyer_live']));
    for (const id of [entitlement.id, entitlement.customer_id, product.id, order.id, subscription.id, fileId, eventId]) {
      expect(await search(id, bearer(other.testKey))).toEqual([]);
      expect(await search(id, bearer(tenant.liveKey))).toEqual([]);
    }
    expect(found(await search('find_sku', bearer(tenant.liveKey)))).toEqual([['product', live.id]]);
  });

  it('refuses a key without customers:read, and leaves out the kinds a key may not read', async () => {
    const noCustomers = await testApp.createKey(tenant.merchantId, 'test', ['entitlements:read', 'products:read']);
    const refused = await testApp.http.get('/v1/search').query({ q: 'find' }).set(bearer(noCustomers)).expect(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    await testApp.http.get('/v1/search').query({ q: 'find' }).expect(401);

    const customersOnly = bearer(await testApp.createKey(tenant.merchantId, 'test', ['customers:read']));
    expect(await search('find_sku', customersOnly)).toEqual([]);
    expect(await search(entitlement.id, customersOnly)).toEqual([]);
    expect(await search(eventId, customersOnly)).toEqual([]);
    expect(found(await search('find_buyer_1', customersOnly))).toEqual([['customer', entitlement.customer_id]]);
    const withProducts = bearer(await testApp.createKey(tenant.merchantId, 'test', ['customers:read', 'products:read']));
    expect(found(await search('find_sku', withProducts))).toEqual([['product', product.id]]);
  });

  it('refuses a missing, empty or overlong q', async () => {
    for (const query of [{}, { q: '' }, { q: 'x'.repeat(256) }]) {
      const refused = await testApp.http.get('/v1/search').query(query).set(key()).expect(400);
      expect(['MISSING_REQUIRED_FIELD', 'INVALID_PARAMETER']).toContain(refused.body.error.code);
    }
  });
});
