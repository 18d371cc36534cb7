import { DataSource } from 'typeorm';
import { DownloadEntity } from '../../src/files/download.entity';
import { RootLogger } from '../../src/logging/root-logger';
import { guessApiKey } from '../support/credential-guesses';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { captureLogs } from '../support/log-capture';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * The client's address behind a proxy (DESIGN §15), through the real app on the adapter of the
 * run (TEST_HTTP_ADAPTER): supertest connects from 127.0.0.1, so with TRUST_PROXY=loopback it is
 * the proxy, and X-Forwarded-For says who the client is. test/unit/client-address.spec.ts has the
 * header parsing in detail; here every consumer is shown to use the one resolved address.
 */
const PASSWORD = 'correct horse battery';

describe('client address behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ TRUST_PROXY: 'loopback', AUTH_FAILURE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'silent', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant('pro');
  });
  afterAll(() => testApp.close());

  const logLineOf = (lines: Record<string, unknown>[], requestId: string) =>
    lines.find((line) => (line.req as { id?: string } | undefined)?.id === requestId) as { req: { remoteAddress: string } } | undefined;

  it('logs the forwarded client, not the proxy; a malformed header leaves the proxy', async () => {
    const logs = captureLogs(testApp.app);
    try {
      const cases: [Record<string, string>, string][] = [
        [{ 'X-Forwarded-For': '203.0.113.9' }, '203.0.113.9'],
        [{ 'X-Forwarded-For': '6.6.6.6, 203.0.113.9' }, '203.0.113.9'],
        [{ 'X-Forwarded-For': '[2001:DB8::5]:443' }, '2001:db8::5'],
        [{ 'X-Forwarded-For': 'not-an-address' }, '127.0.0.1'],
        [{ Forwarded: 'for=198.51.100.1' }, '127.0.0.1'],
        [{}, '127.0.0.1'],
      ];
      for (const [headers, expected] of cases) {
        const response = await testApp.http.get('/v1/products').set(bearer(tenant.testKey)).set(headers).expect(200);
        expect(logLineOf(logs.lines(), response.headers['x-request-id'])?.req.remoteAddress).toBe(expected);
      }
    } finally {
      logs.stop();
      testApp.app.get(RootLogger).pino.level = 'silent';
    }
  });

  it('counts failed authentications per forwarded client: one client blocked, another behind the same proxy not', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let attempt = 0; attempt < 3; attempt += 1) await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set(from('203.0.113.20')).expect(401);
    await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set(from('203.0.113.20')).expect(429);
    // Another client of the same proxy, and the proxy itself, are not blocked.
    await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set(from('203.0.113.21')).expect(401);
    await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).expect(401);
    // Writing another address on the left changes nothing: the proxy appends the real one.
    await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set(from('198.51.100.99, 203.0.113.20')).expect(429);
  });

  it('counts an IPv6 client per /64, which one client holds whole', async () => {
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let attempt = 0; attempt < 3; attempt += 1) await testApp.http.get('/v1/products').set(bearer(guessApiKey('live'))).set(from(`2001:db8:1:2::${attempt + 1}`)).expect(401);
    await testApp.http.get('/v1/products').set(bearer(guessApiKey('live'))).set(from('2001:db8:1:2:ffff:ffff:ffff:ffff')).expect(429);
    await testApp.http.get('/v1/products').set(bearer(guessApiKey('live'))).set(from('2001:db8:1:3::1')).expect(401);
  });

  it('records the forwarded client on the download record', async () => {
    const fixtures = new FileFixtures(testApp);
    const bytes = Buffer.from('hello');
    const product = await fixtures.product(tenant.merchantId, 'live');
    const upload = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'a.pdf', file_size: bytes.length, mime_type: 'application/pdf', product_id: product.id });
    expect((await putObject(upload.uploadUrl, bytes, 'application/pdf')).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(200);
    const customer = await fixtures.customer(tenant.merchantId, 'live');
    const entitlement = await fixtures.entitlement(tenant.merchantId, 'live', customer.id, product.id);
    const response = await testApp.http
      .get(`/v1/files/${upload.fileId}/download`)
      .query({ customer_id: customer.id, entitlement_id: entitlement.id })
      .set(bearer(tenant.liveKey))
      .set('X-Forwarded-For', '192.0.2.77')
      .expect(200);
    const record = await testApp.app.get(DataSource).manager.findOneByOrFail(DownloadEntity, { id: response.body.data.download.id });
    expect(record.client_address).toBe('192.0.2.77');
  });

  it('makes the dashboard cookie Secure and __Host- when a trusted hop says the client used https', async () => {
    const email = `proto-${Date.now()}@example.com`;
    const created = await testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email }).expect(201);
    const token = new URL(created.body.data.setup_url as string).hash.replace('#token=', '');
    await testApp.http.post('/dashboard/api/setup').send({ token, password: PASSWORD }).expect(200);

    const overHttps = await testApp.http.post('/dashboard/api/sign-in').set({ 'X-Forwarded-For': '203.0.113.30', 'X-Forwarded-Proto': 'https' }).send({ email, password: PASSWORD }).expect(200);
    const secureCookie = ([] as string[]).concat(overHttps.headers['set-cookie'])[0];
    expect(secureCookie).toMatch(/^__Host-eh_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const cookie = secureCookie.split(';')[0];
    await testApp.http.get('/v1/products').set('Cookie', cookie).set('Eh-Mode', 'test').set('X-Forwarded-Proto', 'https').expect(200);
    // Over plain http the __Host- cookie is not the session (a browser would not send it anyway).
    await testApp.http.get('/dashboard/api/session').set('Cookie', cookie).expect(401);

    const overHttp = await testApp.http.post('/dashboard/api/sign-in').set({ 'X-Forwarded-For': '203.0.113.30', 'X-Forwarded-Proto': 'http' }).send({ email, password: PASSWORD }).expect(200);
    expect(([] as string[]).concat(overHttp.headers['set-cookie'])[0]).toMatch(/^eh_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  });
});

describe('client address when the peer is not a trusted proxy', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Only 10/8 is trusted; the test client connects from loopback, so its headers are not believed.
    testApp = await createTestApp({ TRUST_PROXY: '10.0.0.0/8', AUTH_FAILURE_LIMIT_PER_MINUTE: '3', LOG_LEVEL: 'silent' });
  });
  afterAll(() => testApp.close());

  it('ignores spoofed X-Forwarded-For and X-Forwarded-Proto: every guess counts against the socket address', async () => {
    const logs = captureLogs(testApp.app);
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set('X-Forwarded-For', `203.0.113.${attempt + 40}`).expect(401);
        const line = logs.lines().find((entry) => (entry.req as { id?: string }).id === response.headers['x-request-id']) as { req: { remoteAddress: string } };
        expect(line.req.remoteAddress).toBe('127.0.0.1');
      }
      await testApp.http.get('/v1/products').set(bearer(guessApiKey('test'))).set('X-Forwarded-For', '203.0.113.99').expect(429);
    } finally {
      logs.stop();
      testApp.app.get(RootLogger).pino.level = 'silent';
    }
  });
});
