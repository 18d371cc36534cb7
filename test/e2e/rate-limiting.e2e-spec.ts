import { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../../src/auth/api-key.entity';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository';
import { MerchantEntity } from '../../src/auth/merchant.entity';
import { freePort } from '../support/free-port';
import { randomLoopbackAddress, sendFrom } from '../support/raw-http';
import { TestWriteModule } from '../support/test-write.controller';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { describeNeeding, testRedisUrl } from '../support/requirements';

const LIMITS = { RATE_LIMIT_READ_PER_MINUTE: '3', RATE_LIMIT_WRITE_PER_MINUTE: '2' };

type Headers = Record<string, string>;

function expectRateLimitHeaders(headers: Headers, limit: number, remaining: number): void {
  expect(headers['x-ratelimit-limit']).toBe(String(limit));
  expect(headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  expect(Number(headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  expect(Number(headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
}

function expectRateLimited(response: { status: number; headers: Headers; body: { error: Record<string, unknown> } }): void {
  expect(response.status).toBe(429);
  expect(response.body.error).toMatchObject({ type: 'rate_limit_error', code: 'RATE_LIMITED', request_id: response.headers['x-request-id'] });
  expect(response.headers['retry-after']).toMatch(/^\d+$/);
  expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
}

describe('rate limiting (in memory)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp(LIMITS, { imports: [TestWriteModule] });
    tenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  it('sends X-RateLimit-* on every authenticated response and answers the 4th read with 429', async () => {
    const key = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    for (let request = 1; request <= 3; request += 1) {
      const response = await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
      expectRateLimitHeaders(response.headers, 3, 3 - request);
    }
    const limited = await testApp.http.get('/v1/products').set(bearer(key));
    expectRateLimited(limited);
    expectRateLimitHeaders(limited.headers, 3, 0);
    // Every read route shares the key's one read budget, errors included.
    expectRateLimited(await testApp.http.get('/v1/products/prod_01jd8x3k2m4n5p6q7r8s9t0v1w').set(bearer(key)));
  });

  it('counts error responses of authenticated requests too, with headers on them', async () => {
    const key = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    const notFound = await testApp.http.get('/v1/products/prod_01jd8x3k2m4n5p6q7r8s9t0v1w').set(bearer(key)).expect(404);
    expectRateLimitHeaders(notFound.headers, 3, 2);
    const badLimit = await testApp.http.get('/v1/products?limit=0').set(bearer(key)).expect(400);
    expectRateLimitHeaders(badLimit.headers, 3, 1);
  });

  it('gives two keys of one merchant separate budgets', async () => {
    const first = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    const second = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    for (let request = 0; request < 3; request += 1) await testApp.http.get('/v1/products').set(bearer(first)).expect(200);
    expectRateLimited(await testApp.http.get('/v1/products').set(bearer(first)));
    const other = await testApp.http.get('/v1/products').set(bearer(second)).expect(200);
    expectRateLimitHeaders(other.headers, 3, 2);
  });

  it('keeps reads and writes in separate budgets', async () => {
    const key = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    for (let request = 0; request < 3; request += 1) await testApp.http.get('/v1/products').set(bearer(key)).expect(200);
    expectRateLimited(await testApp.http.get('/v1/products').set(bearer(key)));
    // Reads are spent; writes still have their own budget of 2.
    for (let request = 1; request <= 2; request += 1) {
      const response = await testApp.http.post('/v1/test-writes').set(bearer(key)).send({ note: 'x' }).expect(201);
      expectRateLimitHeaders(response.headers, 2, 2 - request);
    }
    expectRateLimited(await testApp.http.post('/v1/test-writes').set(bearer(key)).send({}));

    // And the other way round: spent writes leave reads alone.
    const writer = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    for (let request = 0; request < 2; request += 1) await testApp.http.post('/v1/test-writes').set(bearer(writer)).send({}).expect(201);
    expectRateLimited(await testApp.http.post('/v1/test-writes').set(bearer(writer)).send({}));
    const read = await testApp.http.get('/v1/products').set(bearer(writer)).expect(200);
    expectRateLimitHeaders(read.headers, 3, 2);
  });

  it('does not limit or label unauthenticated, public or admin routes with key budgets', async () => {
    const health = await testApp.http.get('/health/live').expect(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
    const unauthenticated = await testApp.http.get('/v1/products').expect(401);
    expect(unauthenticated.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describeNeeding(['redis'], 'rate limiting with Redis storage', () => {
  let redisUrl: string;

  beforeAll(() => {
    redisUrl = testRedisUrl();
  });

  it('shares one budget between two app instances', async () => {
    const first = await createTestApp({ ...LIMITS, REDIS_URL: redisUrl });
    const second = await createTestApp({ ...LIMITS, REDIS_URL: redisUrl });
    try {
      const tenant = await first.createTenant();
      const key = await first.createKey(tenant.merchantId, 'test', ['products:read']);
      if (first.databaseUrl !== second.databaseUrl) {
        // Embedded mode: each app has its own database, so give the second one the same merchant and key.
        const source = first.app.get(DataSource).manager;
        const target = second.app.get(DataSource).manager;
        await target.save(MerchantEntity, await source.findOneByOrFail(MerchantEntity, { id: tenant.merchantId }));
        for (const apiKey of await source.findBy(ApiKeyEntity, { merchant_id: tenant.merchantId })) await target.save(ApiKeyEntity, apiKey);
      }
      const apps = [first, second, first];
      for (const [index, app] of apps.entries()) {
        const response = await app.http.get('/v1/products').set(bearer(key)).expect(200);
        expectRateLimitHeaders(response.headers, 3, 2 - index);
      }
      expectRateLimited(await second.http.get('/v1/products').set(bearer(key)));
      expectRateLimited(await first.http.get('/v1/products').set(bearer(key)));
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('shares failed-authentication blocks between instances: an address blocked on one gets 429 for unknown keys on the other, before any lookup, while its valid key still works', async () => {
    const first = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '3', REDIS_URL: redisUrl });
    const second = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '3', REDIS_URL: redisUrl });
    const keyLookups = jest.spyOn(ApiKeysRepository.prototype, 'findActiveByHash');
    try {
      const [firstPort, secondPort] = [await freePort(), await freePort()];
      await first.app.listen(firstPort, '127.0.0.1');
      await second.app.listen(secondPort, '127.0.0.1');
      const tenant = await second.createTenant();
      // An address of this run's own: counters in the shared Redis are per client address.
      const localAddress = randomLoopbackAddress();
      const unknownKey = { Authorization: 'Bearer eh_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect((await sendFrom({ port: firstPort, localAddress }, 'GET', '/v1/products', unknownKey)).status).toBe(401);
      }
      expect((await sendFrom({ port: firstPort, localAddress }, 'GET', '/v1/products', unknownKey)).status).toBe(429);
      keyLookups.mockClear();
      const refused = await sendFrom({ port: secondPort, localAddress }, 'GET', '/v1/products', { Authorization: 'Bearer eh_test_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(keyLookups).not.toHaveBeenCalled();
      // A valid key is never refused for failures it did not make, from the blocked address included (DESIGN §13).
      expect((await sendFrom({ port: secondPort, localAddress }, 'GET', '/v1/products', bearer(tenant.testKey))).status).toBe(200);
      // Another address is not affected.
      expect((await sendFrom({ port: secondPort, localAddress: randomLoopbackAddress() }, 'GET', '/v1/products', unknownKey)).status).toBe(401);
    } finally {
      keyLookups.mockRestore();
      await first.close();
      await second.close();
    }
  });
});
