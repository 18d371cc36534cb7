import { ALLOWED_MIME_TYPES } from '../../src/files/mime-types';
import { ProductEntity } from '../../src/products/product.entity';
import { ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Each error a newcomer is likely to meet says how to fix the request (issue 13, part 5): the
 * type expected, the nearest known name, the allowed values, the setting, the right route.
 */
describe('errors that teach', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let otherTenant: TestTenant;
  let product: ProductEntity;
  let entitlementId: string;

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    tenant = await testApp.createTenant();
    otherTenant = await testApp.createTenant();
    product = await insertProduct(testApp, tenant.merchantId, 'test');
    entitlementId = (await grant(testApp, tenant.testKey, { store_customer_id: 'teach_customer', product_id: product.id })).id;
  });
  afterAll(() => testApp.close());

  const errorOf = (response: { status: number; body: { error?: { code: string; message: string; param?: string } } }) => ({
    status: response.status,
    ...(response.body.error ?? { code: 'none', message: '' }),
  });

  it('a wrong JSON type names the type expected, not a range', async () => {
    const response = await testApp.http
      .post('/v1/files/upload-url')
      .set(bearer(tenant.testKey))
      .send({ file_name: 'guide.pdf', file_size: '3587', mime_type: 'application/pdf' });
    const error = errorOf(response);
    expect(error).toMatchObject({ status: 400, param: 'file_size' });
    expect(error.message).toMatch(/file_size must be an integer/);
    expect(error.message).not.toMatch(/too large/);

    const name = errorOf(await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 42, entitlement_type: 'permanent' }));
    expect(name).toMatchObject({ status: 400, code: 'INVALID_PARAMETER', param: 'name' });
    expect(name.message).toMatch(/name must be a string/);
  });

  it('both customer ids are the same mistake, with the same code, on the check and on create', async () => {
    const check = errorOf(
      await testApp.http
        .get(`/v1/entitlements/check?customer_id=cus_x&store_customer_id=teach_customer&product_id=${product.id}`)
        .set(bearer(tenant.testKey)),
    );
    const create = errorOf(
      await testApp.http
        .post('/v1/entitlements')
        .set(bearer(tenant.testKey))
        .send({ customer_id: 'cus_x', store_customer_id: 'teach_customer', product_id: product.id }),
    );
    expect(check).toMatchObject({ status: 400, code: 'MISSING_REQUIRED_FIELD', param: 'store_customer_id' });
    expect(create).toMatchObject({ status: check.status, code: check.code, param: check.param, message: check.message });
    expect(check.message).toMatch(/exactly one of 'customer_id' and 'store_customer_id'/);
  });

  it('a refused mime_type lists the allowed types', async () => {
    const error = errorOf(
      await testApp.http
        .post('/v1/files/upload-url')
        .set(bearer(tenant.testKey))
        .send({ file_name: 'tool.exe', file_size: 10, mime_type: 'application/x-msdownload' }),
    );
    expect(error).toMatchObject({ status: 400, param: 'mime_type' });
    for (const type of ALLOWED_MIME_TYPES) expect(error.message).toContain(type);
  });

  it('a refused private webhook URL names WEBHOOK_ALLOW_PRIVATE_URLS', async () => {
    const strictApp = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    try {
      const strictTenant = await strictApp.createTenant();
      const error = errorOf(
        await strictApp.http
          .post('/v1/webhook-endpoints')
          .set(bearer(strictTenant.testKey))
          .send({ url: 'http://127.0.0.1:9/hooks', enabled_events: ['*'] }),
      );
      expect(error).toMatchObject({ status: 400, code: 'INVALID_PARAMETER', param: 'url' });
      expect(error.message).toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
      // A URL refused for another reason doesn't send the reader to that setting.
      const scheme = errorOf(
        await strictApp.http.post('/v1/webhook-endpoints').set(bearer(strictTenant.testKey)).send({ url: 'ftp://example.com/hooks', enabled_events: ['*'] }),
      );
      expect(scheme).toMatchObject({ status: 400, param: 'url' });
      expect(scheme.message).not.toContain('WEBHOOK_ALLOW_PRIVATE_URLS');
    } finally {
      await strictApp.close();
    }
  });

  it('an unknown query parameter suggests the nearest known one, and only a near one', async () => {
    const typo = errorOf(await testApp.http.get(`/v1/entitlements?custmer_id=cus_x`).set(bearer(tenant.testKey)));
    expect(typo).toMatchObject({ status: 400, code: 'INVALID_PARAMETER', param: 'custmer_id' });
    expect(typo.message).toMatch(/did you mean 'customer_id'\?/);

    const limit = errorOf(await testApp.http.get('/v1/products?limt=5').set(bearer(tenant.testKey)));
    expect(limit.message).toMatch(/did you mean 'limit'\?/);

    const far = errorOf(await testApp.http.get('/v1/products?zzzzzz=1').set(bearer(tenant.testKey)));
    expect(far).toMatchObject({ status: 400, code: 'INVALID_PARAMETER', param: 'zzzzzz' });
    expect(far.message).not.toMatch(/did you mean/);

    // Body fields get the same help.
    const field = errorOf(await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 'X', entitlement_type: 'permanent', descripton: 'x' }));
    expect(field.message).toMatch(/did you mean 'description'\?/);
  });

  it('DELETE on an entitlement points to /revoke, and changes nothing', async () => {
    const error = errorOf(await testApp.http.delete(`/v1/entitlements/${entitlementId}`).set(bearer(tenant.testKey)));
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(error.message).toContain(`POST /v1/entitlements/${entitlementId}/revoke`);
    const still = await testApp.http.get(`/v1/entitlements/${entitlementId}`).set(bearer(tenant.testKey)).expect(200);
    expect(still.body.data.status).toBe('active');
    // Isolation: another merchant's DELETE gets the same answer and reveals nothing more.
    const other = errorOf(await testApp.http.delete(`/v1/entitlements/${entitlementId}`).set(bearer(otherTenant.testKey)));
    expect(other).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const live = errorOf(await testApp.http.delete(`/v1/entitlements/${entitlementId}`).set(bearer(tenant.liveKey)));
    expect(live).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
