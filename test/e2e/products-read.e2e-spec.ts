import { DataSource } from 'typeorm';
import { generateId } from '../../src/ids/id';
import { ProductEntity } from '../../src/products/product.entity';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

describe('products (read side)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;

  async function insertProduct(merchantId: string, mode: 'live' | 'test', name: string): Promise<ProductEntity> {
    const manager = testApp.app.get(DataSource).manager;
    return manager.save(
      ProductEntity,
      manager.create(ProductEntity, {
        id: generateId('prod'),
        merchant_id: merchantId,
        mode,
        name,
        store_product_id: `sku_${name}`,
        entitlement_type: 'permanent',
        fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a', access_instructions: null },
      }),
    );
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  it('lists an empty catalogue in the envelope', async () => {
    const response = await testApp.http.get('/v1/products').set(bearer(tenant.testKey)).expect(200);
    expect(response.body).toEqual({
      data: [],
      meta: { request_id: response.headers['x-request-id'], timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) },
      pagination: { total: 0, limit: 25, has_more: false, next_cursor: null },
    });
  });

  it('pages newest first with a cursor and reads one product in full', async () => {
    const created: ProductEntity[] = [];
    for (let index = 0; index < 5; index += 1) created.push(await insertProduct(tenant.merchantId, 'test', `p${index}`));
    const first = await testApp.http.get('/v1/products?limit=2').set(bearer(tenant.testKey)).expect(200);
    expect(first.body.data.map((product: { id: string }) => product.id)).toEqual([created[4].id, created[3].id]);
    expect(first.body.pagination).toMatchObject({ total: 5, limit: 2, has_more: true });
    expect(Object.keys(first.body.data[0]).sort()).toEqual(
      ['access_duration_days', 'created_at', 'description', 'entitlement_type', 'id', 'name', 'status', 'store_product_id', 'usage_limit'].sort(),
    );
    const seen = [...first.body.data];
    let cursor = first.body.pagination.next_cursor;
    while (cursor) {
      const page = await testApp.http.get(`/v1/products?limit=2&cursor=${encodeURIComponent(cursor)}`).set(bearer(tenant.testKey)).expect(200);
      seen.push(...page.body.data);
      cursor = page.body.pagination.next_cursor;
    }
    expect(seen.map((product: { id: string }) => product.id)).toEqual(created.map((product) => product.id).reverse());

    const single = await testApp.http.get(`/v1/products/${created[0].id}`).set(bearer(tenant.testKey)).expect(200);
    expect(single.body.data).toMatchObject({
      id: created[0].id,
      store_product_id: 'sku_p0',
      store_variant_ids: [],
      metadata: {},
      status: 'active',
      fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a', access_instructions: null },
    });
    expect(single.body.data.updated_at).toMatch(/Z$/);
  });

  it('hides other merchants and the other mode (404, empty lists)', async () => {
    const live = await insertProduct(tenant.merchantId, 'live', 'live-only');
    await testApp.http.get(`/v1/products/${live.id}`).set(bearer(tenant.testKey)).expect(404);
    await testApp.http.get(`/v1/products/${live.id}`).set(bearer(tenant.liveKey)).expect(200);
    await testApp.http.get(`/v1/products/${live.id}`).set(bearer(other.liveKey)).expect(404);
    const otherList = await testApp.http.get('/v1/products').set(bearer(other.testKey)).expect(200);
    expect(otherList.body.data).toEqual([]);
  });

  it('answers 404 PRODUCT_NOT_FOUND for malformed ids', async () => {
    for (const id of ['nope', 'prod_', 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w', `prod_${'z'.repeat(300)}`, "prod_' OR 1=1 --"]) {
      const response = await testApp.http.get(`/v1/products/${encodeURIComponent(id)}`).set(bearer(tenant.testKey)).expect(404);
      expect(response.body.error.code).toBe('PRODUCT_NOT_FOUND');
    }
  });
});
