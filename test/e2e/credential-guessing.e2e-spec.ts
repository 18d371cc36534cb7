import { hashApiKey } from '../../src/auth/api-key-format';
import { ApiKeysRepository } from '../../src/auth/api-keys.repository';
import { DashboardSessionsRepository } from '../../src/dashboard/dashboard-sessions.repository';
import { guessApiKey, guessSessionToken } from '../support/credential-guesses';
import { freePort } from '../support/free-port';
import { HttpClient, isAnswer } from '../support/http-client';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * Guessing without lockouts (DESIGN §13, issue 22), behind a proxy (TRUST_PROXY=loopback; the
 * test client is the proxy and X-Forwarded-For names the clients), on the run's adapter. Database
 * lookups are counted at the repositories' lookup methods.
 */
const LIMIT = 30;
const ATTACKER = { 'X-Forwarded-For': '203.0.113.66' };
const BYSTANDER = { 'X-Forwarded-For': '198.51.100.23' };
const PASSWORD = 'correct horse battery';

describe('credential guessing without lockouts', () => {
  let testApp: TestApp;
  let victim: TestTenant;
  let attackerTenant: TestTenant;
  /** For the floods: plain keep-alive requests to the listening app (supertest starts a server per request). */
  let client: HttpClient;

  beforeAll(async () => {
    testApp = await createTestApp({ TRUST_PROXY: 'loopback', AUTH_FAILURE_LIMIT_PER_MINUTE: String(LIMIT) });
    const port = await freePort();
    await testApp.app.listen(port, '127.0.0.1');
    client = new HttpClient(`http://127.0.0.1:${port}`);
    victim = await testApp.createTenant();
    attackerTenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  const statusOf = async (path: string, headers: Record<string, string>): Promise<number | string> => {
    const outcome = await client.request('GET', path, { headers, timeoutMilliseconds: 60_000 });
    return isAnswer(outcome) ? outcome.status : outcome.status;
  };
  afterEach(() => jest.restoreAllMocks());

  it('1,000 wrong keys from one client: the rest 429 with no lookup, while its own and another client’s valid keys keep getting 200', async () => {
    const keyLookups = jest.spyOn(ApiKeysRepository.prototype, 'findActiveByHash');
    const guess = () => statusOf('/v1/products', { ...bearer(guessApiKey('test')), ...ATTACKER });
    // Up to the limit the guesses are looked up and refused (401); the one that passes it is 429.
    const first: (number | string)[] = [];
    for (let index = 0; index <= LIMIT; index += 1) first.push(await guess());
    expect(first).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    expect(keyLookups.mock.calls.length).toBeLessThanOrEqual(LIMIT + 1);

    keyLookups.mockClear();
    const validHashes = new Set([victim.testKey, attackerTenant.liveKey, victim.liveKey].map(hashApiKey));
    const statuses = new Map<number | string, number>();
    const valid: (number | string)[] = [];
    // The other 969 guesses, 19 at a time, each batch beside the valid keys: another client's, and
    // the guessing client's own (for its own tenant and, from the same address, another one's check).
    for (let sent = LIMIT + 1; sent < 1_000; sent += 19) {
      const batch = Array.from({ length: Math.min(19, 1_000 - sent) }, () => guess());
      const [guesses, ...answers] = await Promise.all([
        Promise.all(batch),
        statusOf('/v1/products', { ...bearer(victim.testKey), ...BYSTANDER }),
        statusOf('/v1/products', { ...bearer(attackerTenant.liveKey), ...ATTACKER }),
        statusOf('/v1/entitlements/check?store_customer_id=cus_guess&store_product_id=sku_guess', { ...bearer(victim.liveKey), ...ATTACKER }),
      ]);
      for (const status of guesses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      valid.push(...answers);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 429: 1_000 - LIMIT - 1 });
    expect(valid.length).toBeGreaterThanOrEqual(150);
    expect(valid.filter((status) => status !== 200)).toEqual([]);
    // No blocked guess reached the database; only the valid keys were (re)looked up as their cache entries expired.
    const lookedUp = keyLookups.mock.calls.map(([, hash]) => hash);
    expect(lookedUp.filter((hash) => !validHashes.has(hash))).toEqual([]);
  }, 240_000);

  it('100 random session cookies from a blocked client: all 429, no session lookup; a valid session from it still works', async () => {
    const from = { 'X-Forwarded-For': '203.0.113.67' };
    const email = `guess-${Date.now()}@example.com`;
    const created = await testApp.http.post(`/admin/v1/merchants/${victim.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email }).expect(201);
    const token = new URL(created.body.data.setup_url as string).hash.replace('#token=', '');
    await testApp.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(200);
    const signedIn = await testApp.http.post('/dashboard/api/sign-in').set(from).send({ email, password: PASSWORD }).expect(200);
    const sessionCookie = ([] as string[]).concat(signedIn.headers['set-cookie'])[0].split(';')[0];

    for (let index = 0; index < LIMIT; index += 1) expect(await statusOf('/v1/products', { ...bearer(guessApiKey('test')), ...from })).toBe(401);
    expect(await statusOf('/v1/products', { ...bearer(guessApiKey('test')), ...from })).toBe(429);

    const sessionLookups = jest.spyOn(DashboardSessionsRepository.prototype, 'findOpenByTokenHash');
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => statusOf(index % 2 === 0 ? '/v1/products' : '/dashboard/api/session', { Cookie: `eh_session=${guessSessionToken()}`, 'Eh-Mode': 'test', ...from })),
    );
    expect(answers.filter((status) => status !== 429)).toEqual([]);
    expect(sessionLookups).not.toHaveBeenCalled();

    // The real session, from the same blocked client: never refused for failures.
    expect(await statusOf('/v1/products', { Cookie: sessionCookie, 'Eh-Mode': 'test', ...from })).toBe(200);
    expect(await statusOf('/dashboard/api/session', { Cookie: sessionCookie, ...from })).toBe(200);
    expect(sessionLookups).toHaveBeenCalledTimes(2);
  }, 120_000);

  it('looks an unknown cookie from a client below the limit up once, then remembers it', async () => {
    const client = { 'X-Forwarded-For': '203.0.113.68' };
    const sessionLookups = jest.spyOn(DashboardSessionsRepository.prototype, 'findOpenByTokenHash');
    const cookie = `eh_session=${guessSessionToken()}`;
    await testApp.http.get('/v1/products').set('Cookie', cookie).set(client).expect(401);
    await testApp.http.get('/v1/products').set('Cookie', cookie).set(client).expect(401);
    // Dashboard routes count an unknown cookie too (no longer a free oracle), and answer as signed out.
    await testApp.http.get('/dashboard/api/session').set('Cookie', cookie).set(client).expect(401);
    expect(sessionLookups).toHaveBeenCalledTimes(1);
  });

  it('a revoked key from a blocked client is looked up at most once, then 429 from memory', async () => {
    const client = { 'X-Forwarded-For': '203.0.113.69' };
    const created = await testApp.http.post(`/admin/v1/merchants/${victim.merchantId}/api-keys`).set(bearer(TEST_ADMIN_TOKEN)).send({ mode: 'test', scopes: ['*'] }).expect(201);
    await testApp.http.delete(`/admin/v1/api-keys/${created.body.data.id}`).set(bearer(TEST_ADMIN_TOKEN)).expect(200);
    for (let index = 0; index < LIMIT; index += 1) await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set(client).expect(401);
    await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set(client).expect(429);
    const keyLookups = jest.spyOn(ApiKeysRepository.prototype, 'findActiveByHash');
    for (let index = 0; index < 20; index += 1) await testApp.http.get('/v1/products').set(bearer(created.body.data.key as string)).set(client).expect(429);
    expect(keyLookups.mock.calls.length).toBeLessThanOrEqual(1);
  });

  describe('passwords and the admin token: 429 right or wrong, so no oracle', () => {
    let email: string;

    beforeAll(async () => {
      email = `password-${Date.now()}@example.com`;
      const created = await testApp.http.post(`/admin/v1/merchants/${victim.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email }).expect(201);
      const token = new URL(created.body.data.setup_url as string).hash.replace('#token=', '');
      await testApp.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(200);
    });

    it('an email over the limit: sign-in is 429 from any client, with the right password too; other emails are not affected', async () => {
      for (let index = 0; index < LIMIT; index += 1) {
        const client = { 'X-Forwarded-For': `192.0.2.${index + 1}` };
        await testApp.http.post('/dashboard/api/sign-in').set(client).send({ email, password: `wrong password ${index}` }).expect(401);
      }
      // The failure that passes the limit is already a 429.
      await testApp.http.post('/dashboard/api/sign-in').set({ 'X-Forwarded-For': '192.0.2.100' }).send({ email, password: 'one more wrong one' }).expect(429);
      const fresh = { 'X-Forwarded-For': '192.0.2.200' };
      const right = await testApp.http.post('/dashboard/api/sign-in').set(fresh).send({ email, password: PASSWORD }).expect(429);
      expect(right.body.error.code).toBe('RATE_LIMITED');
      await testApp.http.post('/dashboard/api/sign-in').set(fresh).send({ email, password: 'still wrong password' }).expect(429);
      await testApp.http.post('/dashboard/api/sign-in').set(fresh).send({ email: `other-${email}`, password: 'an unknown email here' }).expect(401);
    });

    it('an address over the limit: sign-in and admin requests from it are 429 right or wrong; from elsewhere they work', async () => {
      const client = { 'X-Forwarded-For': '203.0.113.70' };
      for (let index = 0; index < LIMIT; index += 1) await testApp.http.get('/admin/v1/merchants/mer_x').set(bearer(`wrong-admin-token-${index}-xxxxxxxx`)).set(client).expect(401);
      await testApp.http.get('/admin/v1/merchants/mer_x').set(bearer('wrong-admin-token-last-xxxxxxx')).set(client).expect(429);
      await testApp.http.get(`/admin/v1/merchants/${victim.merchantId}`).set(bearer(TEST_ADMIN_TOKEN)).set(client).expect(429);
      await testApp.http.get(`/admin/v1/merchants/${victim.merchantId}`).set(bearer('wrong-admin-token-again-xxxx')).set(client).expect(429);
      await testApp.http.post('/dashboard/api/sign-in').set(client).send({ email: `nobody-${email}`, password: 'any password at all' }).expect(429);
      await testApp.http.get(`/admin/v1/merchants/${victim.merchantId}`).set(bearer(TEST_ADMIN_TOKEN)).set({ 'X-Forwarded-For': '203.0.113.71' }).expect(200);
      // A valid API key from that address is still never refused.
      await testApp.http.get('/v1/products').set(bearer(victim.testKey)).set(client).expect(200);
    });
  });
});
