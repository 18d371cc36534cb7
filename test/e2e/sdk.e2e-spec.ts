import { ApiError, createEntitlementDeliveryClient, ERROR_CODES, isApiError } from '@entitlement-delivery/sdk';
import { ERROR_CATALOGUE } from '../../src/errors/error-code.enum';
import { freePort } from '../support/free-port';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/** The typed SDK (sdk/) against the real app over HTTP, on whichever adapter the run uses. */
describe('typed SDK', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let otherTenant: TestTenant;
  let baseUrl: string;
  const sentRequests: Request[] = [];

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    testApp = await createTestApp({ PUBLIC_BASE_URL: baseUrl });
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant('free');
    otherTenant = await testApp.createTenant('free');
  });
  afterAll(() => testApp.close());

  const client = (apiKey: string) =>
    createEntitlementDeliveryClient({
      baseUrl,
      apiKey,
      adminToken: TEST_ADMIN_TOKEN,
      fetch: (request) => {
        sentRequests.push(request.clone());
        return fetch(request);
      },
    });

  it('runs the happy path: product → upload → grant → check → download', async () => {
    const sdk = client(tenant.testKey);
    const { data: product } = await sdk.products.create({
      name: 'Field guide (30 days)',
      entitlement_type: 'time_limited',
      access_duration_days: 30,
      fulfillment_config: { delivery_method: 'FILE' },
    });
    expect(product.id).toMatch(/^prod_/);

    const bytes = new TextEncoder().encode('%PDF-1.7 the field guide '.repeat(40));
    const { data: file } = await sdk.files.upload({ file_name: 'guide.pdf', file_size: bytes.length, mime_type: 'application/pdf', product_id: product.id }, bytes);
    expect(file.upload_status).toBe('CONFIRMED');

    const { data: entitlement } = await sdk.entitlements.create({ store_customer_id: 'sdk_customer_1', product_id: product.id });
    expect(entitlement.status).toBe('active');

    const { data: check } = await sdk.entitlements.check({ store_customer_id: 'sdk_customer_1', product_id: product.id });
    expect(check).toMatchObject({ entitled: true, entitlement: { id: entitlement.id, status: 'active' } });
    // A time-limited product: the answer says until when.
    expect(check.entitlement?.expires_at).toEqual(expect.any(String));

    const { data: groups } = await sdk.customers.listDownloads(entitlement.customer_id);
    expect(groups.map((group) => group.files.map((listed) => listed.file_id))).toEqual([[file.id]]);

    const { data: download } = await sdk.files.download(file.id, { entitlement_id: entitlement.id, customer_id: entitlement.customer_id });
    const downloaded = await fetch(download.download_url);
    expect(downloaded.status).toBe(200);
    expect(new Uint8Array(await downloaded.arrayBuffer())).toEqual(bytes);

    const { data: usage } = await sdk.admin.getUsage(tenant.merchantId);
    expect(usage).toEqual(expect.objectContaining({ plan: 'free' }));
  });

  it('sends a fresh Idempotency-Key with every POST under /v1, or the one given to retry safely', async () => {
    const sdk = client(tenant.testKey);
    const { data: product } = await sdk.products.create({ name: 'Idempotent ebook', entitlement_type: 'permanent' });
    const before = sentRequests.length;
    const first = await sdk.entitlements.create({ store_customer_id: 'sdk_customer_2', product_id: product.id }, { idempotencyKey: 'sdk-retry-1' });
    const retried = await sdk.entitlements.create({ store_customer_id: 'sdk_customer_2', product_id: product.id }, { idempotencyKey: 'sdk-retry-1' });
    expect(retried.data.id).toBe(first.data.id);
    await sdk.entitlements.suspend(first.data.id);
    await sdk.entitlements.reactivate(first.data.id);
    await sdk.entitlements.get(first.data.id);

    const sent = sentRequests.slice(before).map((request) => ({ method: request.method, key: request.headers.get('idempotency-key') }));
    expect(sent.slice(0, 2)).toEqual([
      { method: 'POST', key: 'sdk-retry-1' },
      { method: 'POST', key: 'sdk-retry-1' },
    ]);
    const generated = sent.slice(2, 4).map((request) => request.key);
    expect(generated).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(generated[0]).not.toBe(generated[1]);
    expect(sent[4]).toEqual({ method: 'GET', key: null });
  });

  it('throws ApiError with the code, status and request id of the error body', async () => {
    const sdk = client(tenant.testKey);
    const error: unknown = await sdk.entitlements.get('ent_01jd8x3k2m4n5p6q7r8s9t0v1w').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(isApiError(error, 'ENTITLEMENT_NOT_FOUND')).toBe(true);
    expect(error).toMatchObject({ status: 404, code: 'ENTITLEMENT_NOT_FOUND', requestId: expect.stringMatching(/\S/) });

    const invalid = await sdk.products.create({ name: '', entitlement_type: 'permanent' }).catch((caught: unknown) => caught);
    expect(invalid).toMatchObject({ status: 400, param: 'name' });

    const unauthenticated = await client('eh_test_not_a_key').products.list().catch((caught: unknown) => caught);
    expect(unauthenticated).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });

  it("keeps merchants and modes apart: another merchant's or the live key sees nothing of this one", async () => {
    const sdk = client(tenant.testKey);
    const { data: product } = await sdk.products.create({ name: 'Private ebook', entitlement_type: 'permanent' });
    const { data: entitlement } = await sdk.entitlements.create({ store_customer_id: 'sdk_customer_3', product_id: product.id });
    for (const key of [otherTenant.testKey, tenant.liveKey]) {
      await expect(client(key).entitlements.get(entitlement.id)).rejects.toMatchObject({ status: 404, code: 'ENTITLEMENT_NOT_FOUND' });
      await expect(client(key).products.get(product.id)).rejects.toMatchObject({ status: 404, code: 'PRODUCT_NOT_FOUND' });
    }
  });

  it("types error codes as the catalogue's", () => {
    const rendered = new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.renderedCode));
    expect(new Set(ERROR_CODES)).toEqual(rendered);
  });
});
