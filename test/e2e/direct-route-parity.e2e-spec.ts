import { DirectRouter } from '../../src/http/direct-router';
import { EntitlementsRepository } from '../../src/entitlements/entitlements.repository';
import { captureLogs } from '../support/log-capture';
import { freePort } from '../support/free-port';
import { randomLoopbackAddress, RawResponse, sendFrom } from '../support/raw-http';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * GET /v1/entitlements/check is answered before the framework's router (src/http/direct-router.ts).
 * The same request with a trailing slash is the same route to both routers, but the direct router
 * leaves it to the framework: so every case below is sent both ways and must get the same status,
 * the same headers in the same order (date, request id and the counters' values aside) and the
 * same body (request ids, timestamps and tokens aside), on the adapter the suite runs on.
 */

const CHECK = '/v1/entitlements/check';
const WELL_FORMED_UNKNOWN_KEY = `eh_test_${'A'.repeat(40)}`;

interface Normalised {
  status: number;
  headers: Array<[string, unknown]>;
  body: unknown;
}

const VARYING_HEADERS: Record<string, string> = {
  'x-request-id': '<request id>',
  'x-ratelimit-remaining': '<remaining>',
  'x-ratelimit-reset': '<reset>',
  'retry-after': '<retry after>',
};

function normalise(response: RawResponse): Normalised {
  const headers = Object.entries(response.headers)
    .filter(([name]) => name !== 'date')
    .map(([name, value]): [string, unknown] => [name, VARYING_HEADERS[name] ?? value]);
  const body = JSON.parse(response.text) as { data?: { token?: unknown }; meta?: Record<string, unknown>; error?: Record<string, unknown> };
  expect(response.headers['x-request-id']).toBe(body.meta?.request_id ?? body.error?.request_id);
  if (body.meta) body.meta = { request_id: '<request id>', timestamp: typeof body.meta.timestamp };
  if (body.error) body.error.request_id = '<request id>';
  if (typeof body.data?.token === 'string') body.data.token = '<token>';
  return { status: response.status, headers, body };
}

describe(`the access check before the router answers as the framework does (on ${process.env.TEST_HTTP_ADAPTER ?? 'express'})`, () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let port: number;
  const handled = jest.spyOn(DirectRouter.prototype, 'handle');

  /** How many requests the direct router answered since the last call. */
  function answeredDirectly(): number {
    const answered = handled.mock.results.filter((result) => result.value === true).length;
    handled.mockClear();
    return answered;
  }

  /**
   * Sends the request to the direct route and to the framework (trailing slash), checks that each
   * went where it should and that both answered alike; returns the direct answer.
   */
  async function bothWays(
    query: string,
    headers: Record<string, string>,
    options: { port?: number; localAddress?: string; body?: string } = {},
  ): Promise<RawResponse> {
    const target = { port: options.port ?? port, localAddress: options.localAddress };
    answeredDirectly();
    const direct = await sendFrom(target, 'GET', `${CHECK}${query}`, headers, options.body);
    expect(answeredDirectly()).toBe(1);
    const framework = await sendFrom(target, 'GET', `${CHECK}/${query}`, headers, options.body);
    expect(answeredDirectly()).toBe(0);
    expect({ query, ...normalise(direct) }).toEqual({ query, ...normalise(framework) });
    return direct;
  }

  const grant = async (body: Record<string, unknown>) =>
    (await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send(body).expect(201)).body.data as { id: string; customer_id: string; product_id: string };

  async function product(body: Record<string, unknown>): Promise<string> {
    const response = await testApp.http
      .post('/v1/products')
      .set(bearer(tenant.testKey))
      .send({ entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' }, ...body })
      .expect(201);
    return response.body.data.id;
  }

  beforeAll(async () => {
    port = await freePort();
    testApp = await createTestApp();
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant('pro');
  });
  afterAll(async () => {
    handled.mockRestore();
    await testApp.close();
  });

  it('answers hits, misses, bundles and tokens alike, by our ids and by store ids', async () => {
    const ebook = await product({ name: 'Ebook', store_product_id: 'parity_ebook' });
    const audio = await product({ name: 'Audio' });
    const bundle = await product({ name: 'Bundle', store_product_id: 'parity_bundle', included_product_ids: [audio] });
    const direct = await grant({ store_customer_id: 'parity_alice', product_id: ebook, metadata: { seat: 3 } });
    const bundled = await grant({ store_customer_id: 'parity_bob', product_id: bundle });
    const key = bearer(tenant.testKey);

    const hit = await bothWays(`?customer_id=${direct.customer_id}&product_id=${ebook}`, key);
    expect(JSON.parse(hit.text).data).toMatchObject({ entitled: true, entitlement: { id: direct.id, access_type: 'direct', metadata: { seat: 3 } } });
    await bothWays('?store_customer_id=parity_alice&store_product_id=parity_ebook', key);
    const child = await bothWays(`?customer_id=${bundled.customer_id}&product_id=${audio}`, key);
    expect(JSON.parse(child.text).data).toMatchObject({ entitled: true, entitlement: { access_type: 'bundle' } });
    const miss = await bothWays('?store_customer_id=parity_alice&store_product_id=parity_bundle', key);
    expect(JSON.parse(miss.text).data).toEqual({ entitled: false, entitlement: null });
    await bothWays('?store_customer_id=nobody&product_id=prod_01jd8x3k2m4n5p6q7r8s9t0v1w', key);
    await bothWays(`?customer_id=not-an-id&product_id=${ebook}`, key);
    const withToken = await bothWays(`?customer_id=${direct.customer_id}&product_id=${ebook}&include_token=true`, key);
    expect(JSON.parse(withToken.text).data.token).toEqual(expect.any(String));
    await bothWays(`?customer_id=${direct.customer_id}&product_id=${audio}&include_token=true`, key);
    await bothWays(`?customer_id=${direct.customer_id}&product_id=${ebook}&include_token=false`, key);
    // A revoke shows on the very next request, on both paths.
    await testApp.http.post(`/v1/entitlements/${direct.id}/revoke`).set(key).send({}).expect(200);
    const revoked = await bothWays(`?customer_id=${direct.customer_id}&product_id=${ebook}`, key);
    expect(JSON.parse(revoked.text).data.entitled).toBe(false);
  });

  it('refuses every malformed query alike', async () => {
    const key = bearer(tenant.testKey);
    for (const query of [
      '',
      '?',
      '?customer_id=cus_1',
      '?product_id=prod_1',
      '?customer_id=&product_id=',
      '?customer_id=a&store_customer_id=b&product_id=c',
      '?customer_id=a&product_id=c&store_product_id=d',
      '?customer_id=a&product_id=b&colour=red',
      '?customer_id=a&product_id=b&custmer_id=c',
      '?customer_id=a&customer_id=b&product_id=c',
      `?customer_id=${'x'.repeat(256)}&product_id=b`,
      '?customer_id=a&product_id=b&include_token=yes',
      '?customer_id=a%00b&product_id=b',
      '?__proto__=x&customer_id=a&product_id=b',
      '?customer_id=%E0%A4%A&product_id=b',
    ]) {
      const response = await bothWays(query, key);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
    }
  });

  it('refuses credentials and scopes alike, and reads a body as the gate does', async () => {
    const readOnlyProducts = await testApp.createKey(tenant.merchantId, 'test', ['products:read']);
    const revoked = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    const keys = (await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}/api-keys`).set(bearer(TEST_ADMIN_TOKEN)).expect(200)).body.data as Array<{
      id: string;
      prefix: string;
    }>;
    const revokedId = keys.find((entry) => revoked.startsWith(entry.prefix))?.id;
    await testApp.http.delete(`/admin/v1/api-keys/${revokedId}`).set(bearer(TEST_ADMIN_TOKEN)).expect(200);
    const query = '?store_customer_id=a&store_product_id=b';
    expect((await bothWays(query, {})).status).toBe(401);
    expect((await bothWays(query, { Authorization: 'Basic abc' })).status).toBe(401);
    expect((await bothWays(query, bearer('eh_test_short'))).status).toBe(401);
    expect((await bothWays(query, bearer(WELL_FORMED_UNKNOWN_KEY))).status).toBe(401);
    expect((await bothWays(query, bearer(revoked))).status).toBe(401);
    expect((await bothWays(query, bearer(readOnlyProducts))).status).toBe(403);
    expect((await bothWays(query, bearer(tenant.liveKey))).status).toBe(200);
    const json = { ...bearer(tenant.testKey), 'Content-Type': 'application/json' };
    // A GET takes no body: `{}` passes, any field in it is unknown (docs/api-conventions.md).
    expect((await bothWays(query, json, { body: '{}' })).status).toBe(200);
    expect((await bothWays(query, json, { body: '{"ignored":true}' })).status).toBe(400);
    expect((await bothWays(query, json, { body: '{not json' })).status).toBe(400);
    const refused = await bothWays(query, { ...bearer(tenant.testKey), 'Content-Type': 'text/plain' }, { body: 'hello' });
    expect(refused.status).toBe(400);
  });

  it('answers a dashboard session alike', async () => {
    const email = `parity-${Date.now()}@example.com`;
    const created = await testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email }).expect(201);
    const token = new URL(created.body.data.setup_url as string).hash.replace('#token=', '');
    await testApp.http.post('/dashboard/api/setup').send({ token, password: 'correct horse battery' }).expect(200);
    const signedIn = await testApp.http.post('/dashboard/api/sign-in').send({ email, password: 'correct horse battery' }).expect(200);
    const cookie = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0].split(';')[0];
    expect((await bothWays('?store_customer_id=a&store_product_id=b', { Cookie: cookie, 'Eh-Mode': 'test' })).status).toBe(200);
    expect((await bothWays('?store_customer_id=a&store_product_id=b', { Cookie: cookie, 'Eh-Mode': 'live' })).status).toBe(200);
    // The page names its mode: a session request without one, or with an unknown one, is refused alike.
    expect((await bothWays('?store_customer_id=a&store_product_id=b', { Cookie: cookie })).status).toBe(400);
    expect((await bothWays('?store_customer_id=a&store_product_id=b', { Cookie: cookie, 'Eh-Mode': 'staging' })).status).toBe(400);
    expect((await bothWays('?store_customer_id=a&store_product_id=b', { Cookie: 'eh_session=ended', 'Eh-Mode': 'test' })).status).toBe(401);
  });

  it('answers a failing database alike (503 while it is away, 500 for anything unexpected)', async () => {
    const repository = testApp.app.get(EntitlementsRepository);
    const lost = Object.assign(new Error('Connection terminated unexpectedly'), {});
    const spy = jest.spyOn(repository, 'check').mockRejectedValue(lost);
    try {
      expect((await bothWays('?store_customer_id=a&store_product_id=b', bearer(tenant.testKey))).status).toBe(503);
      spy.mockRejectedValue(new TypeError('something unexpected'));
      expect((await bothWays('?store_customer_id=a&store_product_id=b', bearer(tenant.testKey))).status).toBe(500);
    } finally {
      spy.mockRestore();
    }
  });

  it('writes the same request log line (route, status, merchant, mode)', async () => {
    const logs = captureLogs(testApp.app);
    try {
      await bothWays('?store_customer_id=a&store_product_id=b', bearer(tenant.testKey));
      const lines = logs.lines().filter((line) => (line.req as { path?: string } | undefined)?.path?.startsWith(CHECK));
      expect(lines).toHaveLength(2);
      const shape = (line: Record<string, unknown>) => ({ route: line.route, res: line.res, merchant_id: line.merchant_id, mode: line.mode, msg: line.msg });
      expect(shape(lines[0])).toEqual({ route: CHECK, res: { status: 200 }, merchant_id: tenant.merchantId, mode: 'test', msg: `GET ${CHECK} 200` });
      expect(shape(lines[1])).toEqual({ ...shape(lines[0]), route: expect.stringMatching(/^\/v1\/entitlements\/check\/?$/), msg: expect.stringMatching(/^GET \/v1\/entitlements\/check\/? 200$/) });
    } finally {
      logs.stop();
    }
  });

  describe('with small budgets', () => {
    let limited: TestApp;
    let limitedPort: number;
    let limitedTenant: TestTenant;

    beforeAll(async () => {
      limitedPort = await freePort();
      limited = await createTestApp({ RATE_LIMIT_READ_PER_MINUTE: '2', AUTH_FAILURE_LIMIT_PER_MINUTE: '2' });
      await limited.app.listen(limitedPort, '127.0.0.1');
      limitedTenant = await limited.createTenant();
    });
    afterAll(() => limited.close());

    it('counts both paths against one budget and refuses the spent one alike (429, Retry-After)', async () => {
      const key = bearer(limitedTenant.testKey);
      expect((await bothWays('?store_customer_id=a&store_product_id=b', key, { port: limitedPort })).status).toBe(200);
      const refused = await bothWays('?store_customer_id=a&store_product_id=b', key, { port: limitedPort });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
    });

    it('refuses an address over the failed-authentication limit alike', async () => {
      const localAddress = randomLoopbackAddress();
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await sendFrom({ port: limitedPort, localAddress }, 'GET', `${CHECK}?store_customer_id=a&store_product_id=b`, bearer(WELL_FORMED_UNKNOWN_KEY));
      }
      const refused = await bothWays('?store_customer_id=a&store_product_id=b', bearer(WELL_FORMED_UNKNOWN_KEY), { port: limitedPort, localAddress });
      expect(refused.status).toBe(429);
    });
  });
});
