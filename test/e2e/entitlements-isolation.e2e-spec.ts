import { ProductEntity } from '../../src/products/product.entity';
import { ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

describe('entitlements and customers: tenant and mode isolation on every route', () => {
  let testApp: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  let product: ProductEntity;
  let entitlement: Record<string, unknown> & { id: string };

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    owner = await testApp.createTenant();
    other = await testApp.createTenant();
    product = await insertProduct(testApp, owner.merchantId, 'test', { store_product_id: 'sku_shared' });
    // The other merchant (and the owner's live mode) use the same store ids for their own records.
    await insertProduct(testApp, other.merchantId, 'test', { store_product_id: 'sku_shared' });
    await insertProduct(testApp, owner.merchantId, 'live', { store_product_id: 'sku_shared' });
    entitlement = await grant(testApp, owner.testKey, { store_customer_id: 'cust_shared', product_id: product.id });
  });
  afterAll(() => testApp.close());

  const outsiders = () => [
    ['another merchant (test)', other.testKey],
    ['another merchant (live)', other.liveKey],
    ['the same merchant in live mode', owner.liveKey],
  ];

  it('the owner sees everything', async () => {
    const key = bearer(owner.testKey);
    await testApp.http.get(`/v1/entitlements/${entitlement.id}`).set(key).expect(200);
    const check = await testApp.http.get('/v1/entitlements/check?store_customer_id=cust_shared&store_product_id=sku_shared').set(key).expect(200);
    expect(check.body.data.entitled).toBe(true);
    expect((await testApp.http.get(`/v1/customers/${entitlement.customer_id}/entitlements`).set(key).expect(200)).body.pagination.total).toBe(1);
  });

  it('outsiders get 404 on reads and every operation, empty lists and a negative check', async () => {
    for (const [, secret] of outsiders()) {
      const key = bearer(secret);
      const id = entitlement.id;
      const notFound = async (call: Promise<{ status: number; body: { error: { code: string } } }>, code: string) => {
        const response = await call;
        expect([response.status, response.body.error?.code]).toEqual([404, code]);
      };
      await notFound(testApp.http.get(`/v1/entitlements/${id}`).set(key), 'ENTITLEMENT_NOT_FOUND');
      await notFound(testApp.http.patch(`/v1/entitlements/${id}`).set(key).send({ metadata: {} }), 'ENTITLEMENT_NOT_FOUND');
      for (const operation of ['revoke', 'suspend', 'reactivate', 'activate', 'usage']) {
        await notFound(testApp.http.post(`/v1/entitlements/${id}/${operation}`).set(key).send({}), 'ENTITLEMENT_NOT_FOUND');
      }
      await notFound(testApp.http.get(`/v1/customers/${entitlement.customer_id}/entitlements`).set(key), 'CUSTOMER_NOT_FOUND');
      await notFound(testApp.http.get('/v1/customers/store/cust_shared/entitlements').set(key), 'CUSTOMER_NOT_FOUND');
      await notFound(testApp.http.post('/v1/entitlements').set(key).send({ customer_id: entitlement.customer_id, store_product_id: 'sku_shared' }), 'CUSTOMER_NOT_FOUND');
      await notFound(testApp.http.post('/v1/entitlements').set(key).send({ store_customer_id: 'someone', product_id: product.id }), 'PRODUCT_NOT_FOUND');

      for (const query of [`customer_id=${entitlement.customer_id}`, 'store_customer_id=cust_shared', `product_id=${product.id}`, 'status=active', 'source=api']) {
        const list = await testApp.http.get(`/v1/entitlements?${query}`).set(key).expect(200);
        expect(list.body.data.filter((item: { id: string }) => item.id === id)).toEqual([]);
        if (!query.startsWith('status') && !query.startsWith('source')) expect(list.body.pagination.total).toBe(0);
      }
      for (const query of [
        `customer_id=${entitlement.customer_id}&product_id=${product.id}`,
        'store_customer_id=cust_shared&store_product_id=sku_shared',
        `customer_id=${entitlement.customer_id}&store_product_id=sku_shared`,
        `store_customer_id=cust_shared&product_id=${product.id}`,
      ]) {
        const check = await testApp.http.get(`/v1/entitlements/check?${query}`).set(key).expect(200);
        expect(check.body.data).toEqual({ entitled: false, entitlement: null });
      }
    }
    // Nothing the outsiders tried changed the owner's entitlement.
    const after = await testApp.http.get(`/v1/entitlements/${entitlement.id}`).set(bearer(owner.testKey)).expect(200);
    expect(after.body.data).toMatchObject({ status: 'active', usage_count: 0, metadata: {} });
  });

  it('the same store customer id names a different customer per merchant and mode', async () => {
    const theirs = await grant(testApp, other.testKey, { store_customer_id: 'cust_shared', store_product_id: 'sku_shared' });
    const live = await grant(testApp, owner.liveKey, { store_customer_id: 'cust_shared', store_product_id: 'sku_shared' });
    expect(new Set([theirs.customer_id, live.customer_id, entitlement.customer_id]).size).toBe(3);
  });
});
