import { ProductEntity } from '../../src/products/product.entity';
import { ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

describe('entitlements and customers: validation errors', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let product: ProductEntity;
  let entitlementId: string;
  let customerId: string;

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    tenant = await testApp.createTenant();
    product = await insertProduct(testApp, tenant.merchantId, 'test');
    const entitlement = await grant(testApp, tenant.testKey, { store_customer_id: 'cust_v', product_id: product.id });
    entitlementId = entitlement.id;
    customerId = entitlement.customer_id as string;
  });
  afterAll(() => testApp.close());

  const expectError = async (
    call: Promise<{ status: number; body: { error: { code: string; param?: string; message: string } } }>,
    status: number,
    code: string,
    param?: string,
  ) => {
    const response = await call;
    expect({ status: response.status, code: response.body.error?.code }).toEqual({ status, code });
    if (param !== undefined) expect(response.body.error.param).toBe(param);
    return response.body.error;
  };

  describe('POST /v1/entitlements', () => {
    const post = (body: unknown) => testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send(body as object);
    const valid = () => ({ store_customer_id: 'cust_post', product_id: product.id });

    it.each([
      ['neither customer id', { store_customer_id: undefined }, 400, 'MISSING_REQUIRED_FIELD', 'customer_id'],
      ['neither product id', { product_id: undefined }, 400, 'MISSING_REQUIRED_FIELD', 'product_id'],
      ['both customer ids', { customer_id: 'cus_x', store_customer_id: 'c', product_id: 'p' }, 400, 'MISSING_REQUIRED_FIELD', 'store_customer_id'],
      ['both product ids', { store_customer_id: 'c', product_id: 'p', store_product_id: 's' }, 400, 'MISSING_REQUIRED_FIELD', 'store_product_id'],
      ['an unknown field', { extra: 1 }, 400, 'INVALID_PARAMETER', 'extra'],
      ['expires_at not a date', { expires_at: 'tomorrow' }, 400, 'INVALID_PARAMETER', 'expires_at'],
      ['expires_at impossible', { expires_at: '2030-02-30T00:00:00Z' }, 400, 'INVALID_PARAMETER', 'expires_at'],
      ['expires_at in the past', { expires_at: '2020-01-01T00:00:00Z' }, 400, 'INVALID_PARAMETER', 'expires_at'],
      ['usage_limit as a string', { usage_limit: '5' }, 400, 'INVALID_PARAMETER', 'usage_limit'],
      ['usage_limit 0', { usage_limit: 0 }, 400, 'INVALID_PARAMETER', 'usage_limit'],
      ['usage_limit fractional', { usage_limit: 1.5 }, 400, 'INVALID_PARAMETER', 'usage_limit'],
      ['metadata an array', { metadata: [1, 2] }, 400, 'INVALID_PARAMETER', 'metadata'],
      ['metadata a string', { metadata: 'x' }, 400, 'INVALID_PARAMETER', 'metadata'],
      ['metadata too large', { metadata: { blob: 'x'.repeat(16 * 1024) } }, 400, 'INVALID_PARAMETER', 'metadata'],
      ['status active/pending only', { status: 'revoked' }, 400, 'INVALID_PARAMETER', 'status'],
      ['customer_id a number', { customer_id: 5, store_customer_id: undefined }, 400, 'INVALID_PARAMETER', 'customer_id'],
      ['idempotency_key too long', { idempotency_key: 'k'.repeat(256) }, 400, 'INVALID_PARAMETER', 'idempotency_key'],
    ])('%s', async (_name, change, status, code, param) => {
      await expectError(post({ ...valid(), ...change }), status, code, param);
    });

    it('accepts metadata of exactly 16 KiB and an idempotency_key', async () => {
      const padding = 16 * 1024 - JSON.stringify({ blob: '' }).length;
      await post({ ...valid(), metadata: { blob: 'x'.repeat(padding) }, idempotency_key: 'k'.repeat(255) }).expect(201);
    });
  });

  describe('PATCH and operations', () => {
    const patch = (body: unknown) => testApp.http.patch(`/v1/entitlements/${entitlementId}`).set(bearer(tenant.testKey)).send(body as object);

    it.each([
      ['expires_at in the past', { expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      ['expires_at garbage', { expires_at: 'soon' }, 'expires_at'],
      ['metadata null', { metadata: null }, 'metadata'],
      ['metadata an array', { metadata: [] }, 'metadata'],
      ['usage_limit negative', { usage_limit: -1 }, 'usage_limit'],
      ['an unknown field', { status: 'active' }, 'status'],
    ])('PATCH %s → 400', async (_name, body, param) => {
      await expectError(patch(body), 400, 'INVALID_PARAMETER', param);
    });

    it('PATCH usage_limit below usage_count → 400', async () => {
      await testApp.http.post(`/v1/entitlements/${entitlementId}/usage`).set(bearer(tenant.testKey)).send({ quantity: 2 }).expect(200);
      const error = await expectError(patch({ usage_limit: 1 }), 400, 'INVALID_PARAMETER', 'usage_limit');
      expect(error.message).toContain('usage_count');
      await patch({ usage_limit: 3 }).expect(200);
      await patch({ usage_limit: null, expires_at: null }).expect(200);
    });

    it.each([
      ['revoke', { reason: 5 }, 'reason'],
      ['suspend', { reason: 'r'.repeat(1001) }, 'reason'],
      ['reactivate', { expires_at: 'x' }, 'expires_at'],
      ['reactivate', { usage_limit: 'x' }, 'usage_limit'],
      ['usage', { quantity: 0 }, 'quantity'],
      ['usage', { quantity: 'one' }, 'quantity'],
      ['revoke', { unknown: true }, 'unknown'],
    ])('POST %s with %j → 400', async (path, body, param) => {
      await expectError(testApp.http.post(`/v1/entitlements/${entitlementId}/${path}`).set(bearer(tenant.testKey)).send(body), 400, 'INVALID_PARAMETER', param);
    });

    it('malformed and unknown ids → 404 ENTITLEMENT_NOT_FOUND', async () => {
      for (const id of ['nope', 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w', "ent_'; drop"]) {
        await expectError(testApp.http.get(`/v1/entitlements/${encodeURIComponent(id)}`).set(bearer(tenant.testKey)), 404, 'ENTITLEMENT_NOT_FOUND');
        await expectError(testApp.http.post(`/v1/entitlements/${encodeURIComponent(id)}/revoke`).set(bearer(tenant.testKey)).send({}), 404, 'ENTITLEMENT_NOT_FOUND');
      }
    });
  });

  describe('GET /v1/entitlements and check', () => {
    const list = (query: string) => testApp.http.get(`/v1/entitlements?${query}`).set(bearer(tenant.testKey));

    it('needs a filter', async () => {
      await expectError(list(''), 400, 'FILTER_REQUIRED');
      await expectError(list('limit=5'), 400, 'FILTER_REQUIRED');
    });

    it.each([
      ['limit=0&status=active', 'limit'],
      ['limit=101&status=active', 'limit'],
      ['limit=abc&status=active', 'limit'],
      ['status=gone', 'status'],
      ['source=shop', 'source'],
      ['granted_after=yesterday', 'granted_after'],
      ['granted_before=2024-13-01', 'granted_before'],
      ['cursor=forged&status=active', 'cursor'],
      ['colour=red', 'colour'],
    ])('%s → 400 INVALID_PARAMETER', async (query, param) => {
      await expectError(list(query), 400, 'INVALID_PARAMETER', param);
    });

    it('accepts upper and lower case status/source and dates with offsets', async () => {
      const upper = await list(`status=ACTIVE&source=API&customer_id=${customerId}`).expect(200);
      const lower = await list(`status=active&source=api&customer_id=${customerId}`).expect(200);
      expect(upper.body.data.map((item: { id: string }) => item.id)).toEqual([entitlementId]);
      expect(lower.body.data).toEqual(upper.body.data);
      const dated = await list(`customer_id=${customerId}&granted_after=${encodeURIComponent('2000-01-01T00:00:00+02:00')}&granted_before=${encodeURIComponent('2999-01-01T00:00:00Z')}`).expect(200);
      expect(dated.body.pagination.total).toBe(1);
      const none = await list(`customer_id=${customerId}&granted_before=2000-01-01T00:00:00Z`).expect(200);
      expect(none.body).toMatchObject({ data: [], pagination: { total: 0, has_more: false, next_cursor: null } });
    });

    it.each([
      ['', 'customer_id'],
      [`product_id=${'p'}`, 'customer_id'],
      ['customer_id=cus_x', 'product_id'],
      ['customer_id=cus_x&store_customer_id=a&product_id=p', 'customer_id'],
      ['customer_id=cus_x&product_id=p&store_product_id=s', 'product_id'],
    ])('check %s → 400 MISSING_REQUIRED_FIELD', async (query) => {
      await expectError(testApp.http.get(`/v1/entitlements/check?${query}`).set(bearer(tenant.testKey)), 400, 'MISSING_REQUIRED_FIELD');
    });

    it('check with unknown fields → 400, with malformed ids → not entitled', async () => {
      await expectError(testApp.http.get('/v1/entitlements/check?customer_id=a&product_id=b&x=1').set(bearer(tenant.testKey)), 400, 'INVALID_PARAMETER', 'x');
      const response = await testApp.http.get('/v1/entitlements/check?customer_id=a&product_id=b').set(bearer(tenant.testKey)).expect(200);
      expect(response.body.data).toEqual({ entitled: false, entitlement: null });
    });

    it('customer lists validate limit and cursor', async () => {
      await expectError(testApp.http.get(`/v1/customers/${customerId}/entitlements?limit=0`).set(bearer(tenant.testKey)), 400, 'INVALID_PARAMETER', 'limit');
      await expectError(testApp.http.get(`/v1/customers/store/cust_v/entitlements?limit=101`).set(bearer(tenant.testKey)), 400, 'INVALID_PARAMETER', 'limit');
      await expectError(testApp.http.get(`/v1/customers/store/cust_v/entitlements?cursor=abc`).set(bearer(tenant.testKey)), 400, 'INVALID_PARAMETER', 'cursor');
      await expectError(testApp.http.get(`/v1/customers/nope/entitlements`).set(bearer(tenant.testKey)), 404, 'CUSTOMER_NOT_FOUND');
      await expectError(testApp.http.get(`/v1/customers/store/nobody/entitlements`).set(bearer(tenant.testKey)), 404, 'CUSTOMER_NOT_FOUND');
    });
  });
});
