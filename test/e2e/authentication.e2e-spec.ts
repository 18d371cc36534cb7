import { DataSource } from 'typeorm';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository';
import { generateId } from '../../src/ids/id';
import { ProductEntity } from '../../src/products/product.entity';
import { guessApiKey } from '../support/credential-guesses';
import { eventually } from '../support/eventually';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';
import { itNeeding } from '../support/requirements';

const admin = bearer(TEST_ADMIN_TOKEN);

function expectInvalidApiKey(response: { status: number; body: { error: Record<string, unknown> }; headers: Record<string, string> }): void {
  expect(response.status).toBe(401);
  expect(response.body.error).toMatchObject({
    type: 'authentication_error',
    code: 'INVALID_API_KEY',
    request_id: response.headers['x-request-id'],
  });
  expect(typeof response.body.error.message).toBe('string');
}

function expectRateLimited(response: { status: number; body: { error: Record<string, unknown> }; headers: Record<string, string> }): void {
  expect({ status: response.status, code: response.body.error?.code, type: response.body.error?.type }).toEqual({
    status: 429,
    code: 'RATE_LIMITED',
    type: 'rate_limit_error',
  });
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe('authentication', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  async function createKeyThroughAdmin(merchantId: string): Promise<{ id: string; key: string }> {
    const response = await testApp.http
      .post(`/admin/v1/merchants/${merchantId}/api-keys`)
      .set(admin)
      .send({ mode: 'test', scopes: ['products:read'] })
      .expect(201);
    return { id: response.body.data.id, key: response.body.data.key };
  }

  describe('every failure is 401 INVALID_API_KEY', () => {
    it('no Authorization header', async () => {
      expectInvalidApiKey(await testApp.http.get('/v1/products'));
    });

    it.each([
      ['Basic scheme', (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
      ['Token scheme', (key: string) => `Token ${key}`],
      ['no scheme', (key: string) => key],
      ['empty bearer', () => 'Bearer '],
      ['two tokens', (key: string) => `Bearer ${key} ${key}`],
    ])('wrong scheme: %s', async (_label, header) => {
      expectInvalidApiKey(await testApp.http.get('/v1/products').set('Authorization', header(tenant.testKey)));
    });

    it.each([
      'eh_test_short',
      'eh_prod_0123456789abcdefghijklmnopqrstuvwxyzAB',
      'sk_test_0123456789abcdefghijklmnopqrstuvwxyzAB',
      'not-a-key',
    ])('malformed key %p', async (key) => {
      expectInvalidApiKey(await testApp.http.get('/v1/products').set(bearer(key)));
    });

    it('unknown well-formed key', async () => {
      expectInvalidApiKey(await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))));
      expectInvalidApiKey(await testApp.http.get('/v1/products').set(bearer(guessApiKey('live'))));
    });

    it('a key with one character changed', async () => {
      const last = tenant.testKey.at(-1) === 'a' ? 'b' : 'a';
      expectInvalidApiKey(await testApp.http.get('/v1/products').set(bearer(`${tenant.testKey.slice(0, -1)}${last}`)));
    });

    it('a key in the query string does not count', async () => {
      expectInvalidApiKey(await testApp.http.get(`/v1/products?api_key=${tenant.testKey}`));
      expectInvalidApiKey(await testApp.http.get(`/v1/products?key=${tenant.testKey}`));
    });

    it('a key in another header does not count', async () => {
      expectInvalidApiKey(await testApp.http.get('/v1/products').set('X-API-Key', tenant.testKey));
    });

    it('a revoked key', async () => {
      const { id, key } = await createKeyThroughAdmin(tenant.merchantId);
      await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
      await testApp.http.delete(`/admin/v1/api-keys/${id}`).set(admin).expect(200);
      expectInvalidApiKey(await testApp.http.get('/v1/products').set(bearer(key)));
    });

    it('the valid key itself works (control)', async () => {
      await testApp.http.get('/v1/products').set(bearer(tenant.testKey)).expect(200);
      await testApp.http.get('/v1/products').set('Authorization', `bearer  ${tenant.testKey}`).expect(200);
    });
  });

  describe('revocation', () => {
    it('takes effect at once on the instance that revoked it', async () => {
      const { id, key } = await createKeyThroughAdmin(tenant.merchantId);
      // Warm this instance's cache so the test proves the cache is cleared, not just missed.
      await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
      await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
      const revoked = await testApp.http.delete(`/admin/v1/api-keys/${id}`).set(admin).expect(200);
      expect(revoked.body.data).toMatchObject({ id, revoked_at: expect.stringMatching(/Z$/) });
      expectInvalidApiKey(await testApp.http.get('/v1/products').set(bearer(key)));
    });

    itNeeding(['postgresql'], 'reaches a second instance sharing the database within 5 s', async () => {
      const second = await createTestApp();
      try {
        const { id, key } = await createKeyThroughAdmin(tenant.merchantId);
        // The second instance has the key cached as valid before the revocation.
        await second.http.get('/v1/products').set(bearer(key)).expect(200);
        const revokedAt = Date.now();
        await testApp.http.delete(`/admin/v1/api-keys/${id}`).set(admin).expect(200);
        await eventually(async () => (await second.http.get('/v1/products').set(bearer(key))).status === 401, 5_000, 100);
        expect(Date.now() - revokedAt).toBeLessThan(5_000);
        expectInvalidApiKey(await second.http.get('/v1/products').set(bearer(key)));
      } finally {
        await second.close();
      }
    });
  });

  it('records last_used_at after a use', async () => {
    const { id, key } = await createKeyThroughAdmin(tenant.merchantId);
    const listKey = async () => {
      const response = await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}/api-keys`).set(admin).expect(200);
      return (response.body.data as { id: string; last_used_at: string | null }[]).find((item) => item.id === id);
    };
    expect((await listKey())?.last_used_at).toBeNull();
    const before = Date.now();
    await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
    // The write is off the request's path; it lands shortly after.
    await eventually(async () => (await listKey())?.last_used_at != null, 5_000, 50);
    const lastUsed = Date.parse((await listKey())?.last_used_at as string);
    expect(lastUsed).toBeGreaterThanOrEqual(before - 1_000);
    expect(lastUsed).toBeLessThanOrEqual(Date.now() + 1_000);
  });

  it('keeps test and live apart: a live key never sees test records', async () => {
    const manager = testApp.app.get(DataSource).manager;
    const product = await manager.save(
      ProductEntity,
      manager.create(ProductEntity, {
        id: generateId('prod'),
        merchant_id: tenant.merchantId,
        mode: 'test',
        name: 'Test-mode product',
        store_product_id: 'sku_test_only',
        entitlement_type: 'permanent',
        fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a', access_instructions: null },
      }),
    );
    await testApp.http.get(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
    const hidden = await testApp.http.get(`/v1/products/${product.id}`).set(bearer(tenant.liveKey)).expect(404);
    expect(hidden.body.error.code).toBe('PRODUCT_NOT_FOUND');
    const liveList = await testApp.http.get('/v1/products').set(bearer(tenant.liveKey)).expect(200);
    expect(liveList.body.data).toEqual([]);
    expect(liveList.body.pagination.total).toBe(0);
    const testList = await testApp.http.get('/v1/products').set(bearer(tenant.testKey)).expect(200);
    expect(testList.body.data.map((item: { id: string }) => item.id)).toContain(product.id);
  });
});

describe('credential guessing: failed authentications per client address', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '3' });
    tenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());
  afterEach(() => jest.restoreAllMocks());

  it('answers the 4th failure within a minute with 429; then guesses are 429 without a lookup, a valid key still works, the admin token is 429 right or wrong', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expectInvalidApiKey(await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))));
    }
    expectRateLimited(await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))));

    const lookups = jest.spyOn(testApp.app.get(ApiKeysRepository), 'findActiveByHash');
    expectRateLimited(await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))));
    expectRateLimited(await testApp.http.post('/v1/products').set(bearer(guessApiKey('live'))).send({ name: 'x', entitlement_type: 'permanent' }));
    expect(lookups).not.toHaveBeenCalled();
    // A valid key is never refused for failures, its own address's included (DESIGN §13).
    await testApp.http.get('/v1/products').set(bearer(tenant.testKey)).expect(200);
    // The admin token can be guessed: from this address it is 429 right or wrong (no oracle).
    expectRateLimited(await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}`).set(admin));
    expectRateLimited(await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}`).set(bearer('wrong-admin-token-xxxxxxxx')));
    // Without a credential there is nothing to guess: the usual 401; public routes answer.
    expectInvalidApiKey(await testApp.http.get('/v1/products'));
    await testApp.http.get('/health/live').expect(200);
  });
});

describe('unknown keys are remembered briefly', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());
  afterEach(() => jest.restoreAllMocks());

  it('looks each of N distinct unknown keys up at most once, and a repeated unknown key not at all within the TTL', async () => {
    const lookups = jest.spyOn(testApp.app.get(ApiKeysRepository), 'findActiveByHash');
    const keys = Array.from({ length: 40 }, () => guessApiKey('test'));
    for (const response of await Promise.all(keys.map((key) => testApp.http.get('/v1/products').set(bearer(key))))) expectInvalidApiKey(response);
    expect(lookups.mock.calls.length).toBeGreaterThan(0);
    expect(lookups.mock.calls.length).toBeLessThanOrEqual(keys.length);
    lookups.mockClear();
    for (let round = 0; round < 3; round += 1) {
      for (const response of await Promise.all(keys.map((key) => testApp.http.get('/v1/products').set(bearer(key))))) expectInvalidApiKey(response);
    }
    expect(lookups).not.toHaveBeenCalled();
    // Concurrent requests with one new unknown key share a single lookup.
    const sprayed = guessApiKey('live');
    await Promise.all(Array.from({ length: 20 }, () => testApp.http.get('/v1/products').set(bearer(sprayed)).expect(401)));
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});
