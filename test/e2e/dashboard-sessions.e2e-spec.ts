import { DataSource } from 'typeorm';
import { controlClock } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

const admin = bearer(TEST_ADMIN_TOKEN);
const PASSWORD = 'correct horse battery';
const HOUR = 60 * 60 * 1000;

interface SignedIn {
  cookie: string;
  csrf: string;
  merchantId: string;
}

describe('dashboard users and sessions', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

  async function createUser(merchantId: string, email: string): Promise<string> {
    const created = await testApp.http.post(`/admin/v1/merchants/${merchantId}/users`).set(admin).send({ email }).expect(201);
    expect(created.body.data).toMatchObject({ merchant_id: merchantId, email: email.toLowerCase(), id: expect.stringMatching(/^user_/) });
    const url = new URL(created.body.data.setup_url as string);
    expect(url.pathname).toBe('/dashboard/setup');
    return url.hash.replace('#token=', '');
  }

  async function signIn(email: string): Promise<SignedIn> {
    const response = await testApp.http.post('/dashboard/api/sign-in').send({ email, password: PASSWORD }).expect(200);
    const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    expect(setCookie[0]).toMatch(/^eh_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    return { cookie: setCookie[0].split(';')[0], csrf: response.body.data.csrf_token as string, merchantId: response.body.data.merchant_id as string };
  }

  async function userWithPassword(merchantId: string): Promise<string> {
    const email = uniqueEmail('user');
    const token = await createUser(merchantId, email);
    await testApp.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(200);
    return email;
  }

  it('creates a user whose setup link works once, then signs in and acts on /v1 with every scope', async () => {
    const tenant = await testApp.createTenant();
    const email = uniqueEmail('Ada');
    const token = await createUser(tenant.merchantId, email);
    const short = await testApp.http.post('/dashboard/api/setup').send({ token, password: 'too short' }).expect(400);
    expect(short.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'password' });
    await testApp.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(200);
    const reused = await testApp.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(404);
    expect(reused.body.error.code).toBe('SETUP_LINK_INVALID');

    const session = await signIn(email.toUpperCase());
    expect(session.merchantId).toBe(tenant.merchantId);
    const described = await testApp.http.get('/dashboard/api/session').set('Cookie', session.cookie).expect(200);
    expect(described.body.data).toEqual({
      user_id: expect.stringMatching(/^user_/),
      email: email.toLowerCase(),
      merchant_id: tenant.merchantId,
      merchant_name: expect.stringMatching(/^Test merchant /),
      csrf_token: session.csrf,
      // A merchant's first user is its owner (DESIGN §11 roles).
      role: 'owner',
      test_only: false,
      scopes: expect.arrayContaining(['team:owners', 'api_keys:manage', 'audit:read']),
    });
    await testApp.http.get('/v1/products').set('Cookie', session.cookie).set('Eh-Mode', 'test').expect(200);
  });

  it('a new password from a setup link ends the user’s other sessions, in the same transaction as the link and the password', async () => {
    const tenant = await testApp.createTenant();
    const email = await userWithPassword(tenant.merchantId);
    const first = await signIn(email);
    const second = await signIn(email);
    await testApp.http.get('/dashboard/api/session').set('Cookie', first.cookie).expect(200);
    // A reset: a new link for the same user; completing it signs the user out everywhere.
    const token = await createUser(tenant.merchantId, email);
    await testApp.http.post('/dashboard/api/setup').send({ token, password: `${PASSWORD}-new` }).expect(200);
    for (const session of [first, second]) await testApp.http.get('/dashboard/api/session').set('Cookie', session.cookie).expect(401);
    const open: Array<{ count: string }> = await testApp.app
      .get(DataSource)
      .query(`SELECT count(*)::text AS count FROM dashboard_sessions s JOIN dashboard_users u ON u.id = s.user_id WHERE u.email = $1 AND s.ended_at IS NULL`, [email.toLowerCase()]);
    expect(open[0].count).toBe('0');
    await testApp.http.post('/dashboard/api/sign-in').send({ email, password: `${PASSWORD}-new` }).expect(200);
  });

  it('refuses a setup link after 24 hours', async () => {
    const tenant = await testApp.createTenant();
    const clock = controlClock(testApp);
    try {
      const token = await createUser(tenant.merchantId, uniqueEmail('late'));
      clock.advance(24 * HOUR + 1000);
      const late = await testApp.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(404);
      expect(late.body.error.code).toBe('SETUP_LINK_INVALID');
    } finally {
      clock.release();
    }
  });

  it('grants with source manual, in the mode the request names, and records the event', async () => {
    const tenant = await testApp.createTenant();
    const session = await signIn(await userWithPassword(tenant.merchantId));
    const product = await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).send({ name: 'Book', entitlement_type: 'permanent' }).expect(201);
    const granted = await testApp.http
      .post('/v1/entitlements')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrf)
      .set('Eh-Mode', 'test')
      .send({ store_customer_id: 'cust-1', product_id: product.body.data.id })
      .expect(201);
    expect(granted.body.data.source).toBe('manual');
    const events = await testApp.http.get('/v1/events').query({ type: 'entitlement.created' }).set(bearer(tenant.testKey)).expect(200);
    expect(events.body.data.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toContain(granted.body.data.id);
    // The same session naming live sees none of the test records.
    await testApp.http.get(`/v1/entitlements/${granted.body.data.id}`).set('Cookie', session.cookie).set('Eh-Mode', 'live').expect(404);
    await testApp.http.get(`/v1/entitlements/${granted.body.data.id}`).set('Cookie', session.cookie).set('Eh-Mode', 'test').expect(200);
  });

  it('acts in the mode each request names: two tabs of one session never see each other\'s records', async () => {
    const tenant = await testApp.createTenant();
    const session = await signIn(await userWithPassword(tenant.merchantId));
    const tab = (mode: 'test' | 'live') => ({ Cookie: session.cookie, 'X-CSRF-Token': session.csrf, 'Eh-Mode': mode });
    // Interleaved, as two tabs would send them.
    const testProduct = await testApp.http.post('/v1/products').set(tab('test')).send({ name: 'Test tab product', entitlement_type: 'permanent' }).expect(201);
    const liveProduct = await testApp.http.post('/v1/products').set(tab('live')).send({ name: 'Live tab product', entitlement_type: 'permanent' }).expect(201);
    const testGrant = await testApp.http.post('/v1/entitlements').set(tab('test')).send({ store_customer_id: 'tab-customer', product_id: testProduct.body.data.id }).expect(201);
    const liveGrant = await testApp.http.post('/v1/entitlements').set(tab('live')).send({ store_customer_id: 'tab-customer', product_id: liveProduct.body.data.id }).expect(201);

    const listed = async (mode: 'test' | 'live') => (await testApp.http.get('/v1/products').set(tab(mode)).expect(200)).body.data.map((product: { id: string }) => product.id);
    expect(await listed('test')).toEqual([testProduct.body.data.id]);
    expect(await listed('live')).toEqual([liveProduct.body.data.id]);
    // Each tab's ids are 404 in the other; the other mode's product can't be granted either.
    await testApp.http.get(`/v1/products/${liveProduct.body.data.id}`).set(tab('test')).expect(404);
    await testApp.http.get(`/v1/entitlements/${testGrant.body.data.id}`).set(tab('live')).expect(404);
    await testApp.http.post('/v1/entitlements').set(tab('test')).send({ store_customer_id: 'tab-customer', product_id: liveProduct.body.data.id }).expect(404);
    // The keys see the same split: what the live tab made is live.
    await testApp.http.get(`/v1/entitlements/${liveGrant.body.data.id}`).set(bearer(tenant.liveKey)).expect(200);
    await testApp.http.get(`/v1/entitlements/${liveGrant.body.data.id}`).set(bearer(tenant.testKey)).expect(404);
    // The Overview names its mode too.
    await testApp.http.get('/dashboard/api/overview').set(tab('live')).expect(200);
  });

  it('needs Eh-Mode on every /v1 request of a session, and ignores it for keys', async () => {
    const tenant = await testApp.createTenant();
    const session = await signIn(await userWithPassword(tenant.merchantId));
    const missing = await testApp.http.get('/v1/products').set('Cookie', session.cookie).expect(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'Eh-Mode', type: 'invalid_request_error' });
    expect(missing.body.error.message).toContain('Eh-Mode');
    for (const bad of ['TEST', 'production', '', 'test,live']) {
      const refused = await testApp.http.get('/v1/products').set('Cookie', session.cookie).set('Eh-Mode', bad).expect(400);
      expect(refused.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'Eh-Mode' });
    }
    // A write: the CSRF token is checked first, then the mode; nothing is created without one.
    await testApp.http.post('/v1/products').set('Cookie', session.cookie).set('Eh-Mode', 'test').send({ name: 'No token', entitlement_type: 'permanent' }).expect(403);
    const noMode = await testApp.http.post('/v1/products').set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).send({ name: 'No mode', entitlement_type: 'permanent' }).expect(400);
    expect(noMode.body.error.param).toBe('Eh-Mode');
    // An ended session is a 401 whatever the header says.
    await testApp.http.get('/v1/products').set('Cookie', 'eh_session=unknown').set('Eh-Mode', 'nonsense').expect(401);
    // The mode-specific dashboard route needs it; the merchant-wide ones don't.
    const overview = await testApp.http.get('/dashboard/api/overview').set('Cookie', session.cookie).expect(400);
    expect(overview.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'Eh-Mode' });
    await testApp.http.get('/dashboard/api/overview').set('Cookie', session.cookie).set('Eh-Mode', 'both').expect(400);
    await testApp.http.get('/dashboard/api/api-keys').set('Cookie', session.cookie).expect(200);
    await testApp.http.get('/dashboard/api/session').set('Cookie', session.cookie).expect(200);
    // A key's mode is the key's: the header changes nothing, whatever its value.
    const made = await testApp.http.post('/v1/products').set(bearer(tenant.testKey)).set('Eh-Mode', 'live').send({ name: 'Keyed', entitlement_type: 'permanent' }).expect(201);
    await testApp.http.get(`/v1/products/${made.body.data.id}`).set(bearer(tenant.testKey)).set('Eh-Mode', 'nonsense').expect(200);
    await testApp.http.get(`/v1/products/${made.body.data.id}`).set(bearer(tenant.liveKey)).set('Eh-Mode', 'test').expect(404);
  });

  it('has no mode switch any more', async () => {
    const tenant = await testApp.createTenant();
    const session = await signIn(await userWithPassword(tenant.merchantId));
    await testApp.http.post('/dashboard/api/session/mode').set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).send({ mode: 'live' }).expect(404);
  });

  it('refuses a state-changing request without the CSRF token', async () => {
    const tenant = await testApp.createTenant();
    const session = await signIn(await userWithPassword(tenant.merchantId));
    const refused = await testApp.http.post('/v1/products').set('Cookie', session.cookie).set('Origin', 'https://evil.example').send({ name: 'Nope' }).expect(403);
    expect(refused.body.error.code).toBe('CSRF_TOKEN_INVALID');
    await testApp.http.post('/v1/products').set('Cookie', session.cookie).set('X-CSRF-Token', 'wrong').send({ name: 'Nope' }).expect(403);
    await testApp.http.post('/dashboard/api/api-keys').set('Cookie', session.cookie).send({ mode: 'test', scopes: ['*'] }).expect(403);
    const products = await testApp.http.get('/v1/products').set('Cookie', session.cookie).set('Eh-Mode', 'test').expect(200);
    expect(products.body.data).toEqual([]);
  });

  it('ends the session on sign-out and after 12 idle hours', async () => {
    const tenant = await testApp.createTenant();
    const email = await userWithPassword(tenant.merchantId);
    const first = await signIn(email);
    const signedOut = await testApp.http.post('/dashboard/api/sign-out').set('Cookie', first.cookie).set('X-CSRF-Token', first.csrf).expect(200);
    expect(([] as string[]).concat(signedOut.headers['set-cookie'] ?? [])[0]).toContain('Max-Age=0');
    const ended = await testApp.http.get('/v1/products').set('Cookie', first.cookie).set('Eh-Mode', 'test').expect(401);
    expect(ended.body.error.code).toBe('INVALID_SESSION');
    await testApp.http.get('/dashboard/api/session').set('Cookie', first.cookie).expect(401);

    const clock = controlClock(testApp);
    try {
      const second = await signIn(email);
      clock.advance(11 * HOUR);
      await testApp.http.get('/v1/products').set('Cookie', second.cookie).set('Eh-Mode', 'test').expect(200);
      // Activity moved the idle window: 11 more hours are still within it.
      clock.advance(11 * HOUR);
      await testApp.http.get('/v1/products').set('Cookie', second.cookie).set('Eh-Mode', 'live').expect(200);
      clock.advance(12 * HOUR + 1000);
      await testApp.http.get('/v1/products').set('Cookie', second.cookie).set('Eh-Mode', 'test').expect(401);
    } finally {
      clock.release();
    }
  });

  it('keeps merchants apart: sessions, keys and users', async () => {
    const first = await testApp.createTenant();
    const second = await testApp.createTenant();
    const session = await signIn(await userWithPassword(first.merchantId));
    const otherProduct = await testApp.http.post('/v1/products').set(bearer(second.testKey)).send({ name: 'Theirs', entitlement_type: 'permanent' }).expect(201);
    await testApp.http.get(`/v1/products/${otherProduct.body.data.id}`).set('Cookie', session.cookie).set('Eh-Mode', 'test').expect(404);

    const keys = await testApp.http.get('/dashboard/api/api-keys').set('Cookie', session.cookie).expect(200);
    expect(keys.body.data.length).toBeGreaterThan(0);
    const theirKeys = await testApp.http.get(`/admin/v1/merchants/${second.merchantId}/api-keys`).set(admin).expect(200);
    const refused = await testApp.http.delete(`/dashboard/api/api-keys/${theirKeys.body.data[0].id}`).set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).expect(404);
    expect(refused.body.error.code).toBe('API_KEY_NOT_FOUND');

    const created = await testApp.http
      .post('/dashboard/api/api-keys')
      .set('Cookie', session.cookie)
      .set('X-CSRF-Token', session.csrf)
      .send({ mode: 'test', scopes: ['products:read', 'customers:read'], name: 'reader' })
      .expect(201);
    expect(created.body.data.key).toMatch(/^eh_test_/);
    await testApp.http.get('/v1/products').set(bearer(created.body.data.key)).expect(200);
    await testApp.http.get('/v1/events').set(bearer(created.body.data.key)).expect(403);
    await testApp.http.delete(`/dashboard/api/api-keys/${created.body.data.id}`).set('Cookie', session.cookie).set('X-CSRF-Token', session.csrf).expect(200);

    const email = uniqueEmail('shared');
    await createUser(first.merchantId, email);
    const taken = await testApp.http.post(`/admin/v1/merchants/${second.merchantId}/users`).set(admin).send({ email }).expect(409);
    expect(taken.body.error.code).toBe('DASHBOARD_USER_EXISTS');
  });

  it('shows the Overview numbers: plan, usage and 30 days of downloads', async () => {
    const tenant = await testApp.createTenant();
    const session = await signIn(await userWithPassword(tenant.merchantId));
    const overview = await testApp.http.get('/dashboard/api/overview').set('Cookie', session.cookie).set('Eh-Mode', 'test').expect(200);
    expect(overview.body.data.usage.plan).toBe('free');
    expect(overview.body.data.daily).toHaveLength(30);
    expect(overview.body.data.daily[29]).toEqual({ day: new Date().toISOString().slice(0, 10), downloads: 0, bytes: 0 });
  });

  it('needs a session for the dashboard routes', async () => {
    const anonymous = await testApp.http.get('/dashboard/api/session').expect(401);
    expect(anonymous.body.error.code).toBe('INVALID_SESSION');
    await testApp.http.get('/v1/products').set('Cookie', 'eh_session=unknown').expect(401);
  });
});

describe('dashboard sign-in failures', () => {
  let limited: TestApp;

  beforeAll(async () => {
    limited = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => limited.close());

  async function userWithPassword(merchantId: string): Promise<string> {
    const email = `limited-${Date.now()}@example.com`;
    const created = await limited.http.post(`/admin/v1/merchants/${merchantId}/users`).set(admin).send({ email }).expect(201);
    const token = new URL(created.body.data.setup_url as string).hash.replace('#token=', '');
    await limited.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(200);
    return email;
  }

  it('limits failed sign-ins per email with the 429 rule of API keys', async () => {
    const tenant = await limited.createTenant();
    const email = await userWithPassword(tenant.merchantId);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await limited.http.post('/dashboard/api/sign-in').send({ email, password: `wrong password ${attempt}` }).expect(401);
      expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    }
    const blocked = await limited.http.post('/dashboard/api/sign-in').send({ email, password: 'wrong again!!' }).expect(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Right or wrong, while blocked.
    await limited.http.post('/dashboard/api/sign-in').send({ email, password: PASSWORD }).expect(429);
  });

});
