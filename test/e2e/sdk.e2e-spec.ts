import {
  ApiError,
  createEntitlementDeliveryClient,
  ERROR_CODES,
  isApiError,
  TokenVerificationError,
  verifyEntitlementToken,
  WebhookVerificationError,
} from '@entitlement-delivery/sdk';
import { ERROR_CATALOGUE } from '../../src/errors/error-code.enum';
import { freePort } from '../support/free-port';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

/** The typed SDK (sdk/) against the real app over HTTP, on whichever adapter the run uses. */
describe('typed SDK', () => {
  const WRITE_LIMIT = 5_000;
  let testApp: TestApp;
  let tenant: TestTenant;
  let otherTenant: TestTenant;
  let baseUrl: string;
  const sentRequests: Request[] = [];

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    testApp = await createTestApp({ PUBLIC_BASE_URL: baseUrl, RATE_LIMIT_WRITE_PER_MINUTE: String(WRITE_LIMIT) });
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant('free');
    otherTenant = await testApp.createTenant('free');
  });
  afterAll(() => testApp.close());

  const client = (apiKey: string, fetchFunction: (request: Request) => Promise<Response> = (request) => fetch(request)) =>
    createEntitlementDeliveryClient({
      baseUrl,
      apiKey,
      adminToken: TEST_ADMIN_TOKEN,
      initialRetryDelay: 10,
      fetch: (request) => {
        sentRequests.push(request.clone());
        return fetchFunction(request);
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

  it('sends a fresh Idempotency-Key with every keyed POST, or the one given to retry safely', async () => {
    const sdk = client(tenant.testKey);
    const { data: product } = await sdk.products.create({ name: 'Idempotent ebook', entitlement_type: 'permanent' });
    const before = sentRequests.length;
    const first = await sdk.entitlements.create({ store_customer_id: 'sdk_customer_2', product_id: product.id }, { idempotencyKey: 'sdk-retry-1' });
    const retried = await sdk.entitlements.create({ store_customer_id: 'sdk_customer_2', product_id: product.id }, { idempotencyKey: 'sdk-retry-1' });
    expect(retried.data.id).toBe(first.data.id);
    expect([first.lastResponse.idempotentReplayed, retried.lastResponse.idempotentReplayed]).toEqual([false, true]);
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

  it('honours a body idempotency_key: sent as the header too, so a repeat replays instead of conflicting', async () => {
    const sdk = client(tenant.testKey);
    const { data: product } = await sdk.products.create({ name: 'Body-keyed ebook', entitlement_type: 'permanent' });
    const body = { store_customer_id: 'sdk_body_key', product_id: product.id, idempotency_key: `body-key-${product.id}` };
    const first = await sdk.entitlements.create(body);
    const repeat = await sdk.entitlements.create(body);
    expect(repeat.data.id).toBe(first.data.id);
    expect(first.lastResponse).toMatchObject({ status: 201, idempotentReplayed: false, idempotencyKey: body.idempotency_key });
    expect(repeat.lastResponse).toMatchObject({ status: 201, idempotentReplayed: true, idempotencyKey: body.idempotency_key });
  });

  it('retries a write whose answer was lost with the same key: the service replays it and acts once', async () => {
    const { data: product } = await client(tenant.testKey).products.create({ name: 'Lost-answer ebook', entitlement_type: 'permanent' });
    let dropped = 0;
    // The first attempt reaches the service and commits; its answer never reaches the client.
    const sdk = client(tenant.testKey, async (request) => {
      const response = await fetch(request);
      if (request.method === 'POST' && dropped === 0) {
        dropped++;
        await response.body?.cancel();
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    });
    const result = await sdk.entitlements.create({ store_customer_id: 'sdk_lost_answer', product_id: product.id });
    expect(result.lastResponse).toMatchObject({ attempts: 2, idempotentReplayed: true, status: 201 });
    const page = await sdk.entitlements.list({ store_customer_id: 'sdk_lost_answer' });
    expect(page.pagination.total).toBe(1);
    expect(page.data[0]?.id).toBe(result.data.id);
  });

  it('exposes request id and rate limit on every result without putting them in the body', async () => {
    const sdk = client(tenant.testKey);
    const result = await sdk.products.create({ name: 'Metered ebook', entitlement_type: 'permanent' });
    expect(result.lastResponse.requestId).toBe(result.meta.request_id);
    expect(result.lastResponse.rateLimit).toEqual({ limit: WRITE_LIMIT, remaining: expect.any(Number), reset: expect.any(Number) });
    expect(Object.keys(result).sort()).toEqual(['data', 'meta']);
    const health = await sdk.health.live();
    expect(health.lastResponse).toMatchObject({ status: 200, rateLimit: null });
  });

  it('iterates a list across pages with for await, and collects a bounded toArray', async () => {
    const fresh = await testApp.createTenant('free');
    const sdk = client(fresh.testKey);
    const created: string[] = [];
    for (let index = 0; index < 5; index++) created.push((await sdk.products.create({ name: `Paged ${index}`, entitlement_type: 'permanent' })).data.id);
    const newestFirst = [...created].reverse();

    const iterated: string[] = [];
    for await (const product of sdk.products.list({ limit: 2 })) iterated.push(product.id);
    expect(iterated).toEqual(newestFirst);
    expect(await sdk.products.list().toArray({ limit: 3 })).toEqual((await sdk.products.list({ limit: 3 })).data);
    expect((await sdk.products.list().toArray({ limit: 100 })).map((product) => product.id)).toEqual(newestFirst);
  });

  it('throws ApiError with the code, status and request id of the error body, from groups and raw', async () => {
    const sdk = client(tenant.testKey);
    const error: unknown = await sdk.entitlements.get('ent_01jd8x3k2m4n5p6q7r8s9t0v1w').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(isApiError(error, 'ENTITLEMENT_NOT_FOUND')).toBe(true);
    expect(error).toMatchObject({ status: 404, code: 'ENTITLEMENT_NOT_FOUND', requestId: expect.stringMatching(/\S/) });

    const invalid = await sdk.products.create({ name: '', entitlement_type: 'permanent' }).catch((caught: unknown) => caught);
    expect(invalid).toMatchObject({ status: 400, param: 'name' });

    const unauthenticated = await client('eh_test_not_a_key').products.list().catch((caught: unknown) => caught);
    expect(unauthenticated).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });

    const raw = await sdk.raw.GET('/v1/orders/{order_id}', { params: { path: { order_id: 'ord_01jd8x3k2m4n5p6q7r8s9t0v1w' } } }).catch((caught: unknown) => caught);
    expect(raw).toBeInstanceOf(ApiError);
    expect(raw).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });
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

  it("verifies this merchant and mode's tokens against the served JWKS, and refuses another merchant's and the other mode's", async () => {
    const tokenOf = async (apiKey: string, storeCustomerId: string) => {
      const sdk = client(apiKey);
      const { data: product } = await sdk.products.create({ name: 'Token ebook', entitlement_type: 'permanent' });
      const { data: entitlement } = await sdk.entitlements.create({ store_customer_id: storeCustomerId, product_id: product.id });
      return { token: (await sdk.entitlements.issueToken(entitlement.id)).data.token, entitlement };
    };
    const own = await tokenOf(tenant.testKey, 'sdk_token_own');
    const otherMerchant = await tokenOf(otherTenant.testKey, 'sdk_token_own');
    const otherMode = await tokenOf(tenant.liveKey, 'sdk_token_own');

    const sdk = client(tenant.testKey);
    const claims = await sdk.tokens.verify(own.token, { merchant: tenant.merchantId, mode: 'test', productId: own.entitlement.product_id });
    expect(claims).toMatchObject({ iss: baseUrl, aud: `${tenant.merchantId}:test`, sub: own.entitlement.customer_id, id: own.entitlement.id, status: 'active' });
    for (const foreign of [otherMerchant.token, otherMode.token]) {
      const refused = await sdk.tokens.verify(foreign, { merchant: tenant.merchantId, mode: 'test' }).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(TokenVerificationError);
      expect(refused).toMatchObject({ reason: 'WRONG_AUDIENCE' });
    }
    // Standalone, as a customer's app would: the issuer is the JWKS URL's service.
    await expect(
      verifyEntitlementToken(own.token, { jwks: `${baseUrl}/.well-known/jwks.json`, merchant: tenant.merchantId, mode: 'test' }),
    ).resolves.toMatchObject({ id: own.entitlement.id });
    await expect(
      verifyEntitlementToken(otherMode.token, { jwks: `${baseUrl}/.well-known/jwks.json`, merchant: tenant.merchantId, mode: 'test' }),
    ).rejects.toMatchObject({ reason: 'WRONG_AUDIENCE' });
  });

  it('verifies real webhook deliveries with webhooks.verify, and refuses a tampered one', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const sdk = client(tenant.testKey);
      const { data: endpoint } = await sdk.webhookEndpoints.create({ url: receiver.url('/sdk-hook'), enabled_events: ['product.created'] });
      const { data: product } = await sdk.products.create({ name: 'Announced ebook', entitlement_type: 'permanent' });
      await receiver.until(() => receiver.at('/sdk-hook').length > 0);
      const [delivery] = receiver.at('/sdk-hook');
      if (!delivery) throw new Error('no delivery');
      const event = await sdk.webhooks.verify(delivery.body, delivery.headers, endpoint.secret);
      expect(event).toMatchObject({ id: delivery.headers['webhook-id'], type: 'product.created', livemode: false, data: { object: { id: product.id } } });
      const tampered = await sdk.webhooks.verify(delivery.body.replace(product.id, 'prod_forged'), delivery.headers, endpoint.secret).catch((caught: unknown) => caught);
      expect(tampered).toBeInstanceOf(WebhookVerificationError);
      expect(tampered).toMatchObject({ reason: 'INVALID_SIGNATURE' });
      await sdk.webhookEndpoints.delete(endpoint.id);
    } finally {
      await receiver.close();
    }
  });

  it("types error codes as the catalogue's", () => {
    const rendered = new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.renderedCode));
    expect(new Set(ERROR_CODES)).toEqual(rendered);
  });
});
