import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { Pruner } from '../../src/database/pruner';
import { controlClock, insertProduct } from '../support/entitlement-fixtures';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const PDF = 'application/pdf';
const PASSWORD = 'correct horse battery';

interface Portal {
  /** The portal cookie as sent back (`name=value`). */
  cookie: string;
  csrf: string;
}

/**
 * The customer portal (DESIGN §19, issue 33): one-time links stored hashed, their expiry and
 * return_url rules, the portal session's reads, a download through the very path of
 * POST /v1/files/{id}/download (bandwidth and event), Deactivate, CSRF, isolation (every other
 * customer's, merchant's or mode's id is 404) and what a portal cookie can't do anywhere else.
 */
describe('customer portal', () => {
  let testApp: TestApp;
  let fixtures: FileFixtures;
  let tenant: TestTenant;

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    fixtures = new FileFixtures(testApp);
    tenant = await testApp.createTenant('free');
  });
  afterAll(() => testApp.close());

  const database = () => testApp.app.get(DataSource);
  const tokenOf = (url: string) => new URL(url).pathname.replace('/portal/open/', '');
  const as = (portal: Portal, csrf = true) => ({ Cookie: portal.cookie, ...(csrf ? { 'X-CSRF-Token': portal.csrf } : {}) });

  async function createSession(key: string, body: Record<string, unknown>): Promise<{ id: string; url: string; expires_at: string; customer_id: string }> {
    const response = await testApp.http.post('/v1/portal-sessions').set(bearer(key)).send(body).expect(201);
    return response.body.data;
  }

  async function open(url: string): Promise<Portal> {
    const opened = await testApp.http.get(new URL(url).pathname).expect(303);
    expect(opened.headers.location).toBe('/portal/');
    const cookie = ([] as string[]).concat(opened.headers['set-cookie'] ?? [])[0];
    expect(cookie).toMatch(/^eh_portal=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const value = cookie.split(';')[0];
    const session = await testApp.http.get('/portal/api/session').set({ Cookie: value }).expect(200);
    return { cookie: value, csrf: session.body.data.csrf_token };
  }

  /** A FILE product with one confirmed file, and `customer`'s active entitlement to it. */
  async function fileDelivery(key: string, merchantId: string, mode: 'live' | 'test', customerId: string, bytes: Buffer) {
    const product = await fixtures.product(merchantId, mode);
    const upload = await fixtures.uploadUrl(key, { file_name: 'book.pdf', file_size: bytes.length, mime_type: PDF, product_id: product.id });
    expect((await putObject(upload.uploadUrl, bytes, PDF)).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(key)).expect(200);
    const entitlement = await fixtures.entitlement(merchantId, mode, customerId, product.id);
    return { product, fileId: upload.fileId, entitlement };
  }

  async function bandwidthOf(merchantId: string, mode: 'live' | 'test'): Promise<number> {
    const rows: Array<{ bytes: string }> = await database().query('SELECT COALESCE(SUM(bandwidth_bytes), 0)::text AS bytes FROM bandwidth_usage WHERE merchant_id = $1 AND mode = $2', [merchantId, mode]);
    return Number(rows[0].bytes);
  }

  async function downloadEvents(entitlementId: string): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ object: Record<string, unknown> }> = await database().query(
      `SELECT data->'object' AS object FROM events WHERE type = 'download.completed' AND data->'object'->>'entitlement_id' = $1 ORDER BY created_at`,
      [entitlementId],
    );
    return rows.map((row) => row.object);
  }

  describe('portal sessions', () => {
    it('makes a one-time link stored only as a hash, valid one hour, that starts a session once', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      const before = Date.now();
      const created = await createSession(tenant.testKey, { customer_id: customer.id, return_url: 'https://shop.example.com/account' });
      expect(created).toMatchObject({ id: expect.stringMatching(/^ps_/), customer_id: customer.id, return_url: 'https://shop.example.com/account' });
      expect(created.url.startsWith(`${new URL(created.url).origin}/portal/open/`)).toBe(true);
      const expiresIn = new Date(created.expires_at).getTime() - before;
      expect(expiresIn).toBeGreaterThan(59 * 60 * 1000);
      expect(expiresIn).toBeLessThanOrEqual(61 * 60 * 1000);
      // ≥ 128 random bits (32 bytes, base64url) and only the SHA-256 kept.
      const token = tokenOf(created.url);
      expect(token.length).toBeGreaterThanOrEqual(43);
      const [row] = await database().query('SELECT * FROM portal_sessions WHERE id = $1', [created.id]);
      expect(row.link_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(row)).not.toContain(token);

      const portal = await open(created.url);
      const [opened] = await database().query('SELECT * FROM portal_sessions WHERE id = $1', [created.id]);
      expect(opened.cookie_token_hash).toBe(createHash('sha256').update(portal.cookie.split('=')[1]).digest('hex'));
      const session = await testApp.http.get('/portal/api/session').set(as(portal)).expect(200);
      expect(session.body.data).toMatchObject({ customer_id: customer.id, return_url: 'https://shop.example.com/account', livemode: false });

      // The second use: a page that says so, and no cookie.
      const again = await testApp.http.get(new URL(created.url).pathname).expect(410);
      expect(again.headers['set-cookie']).toBeUndefined();
      expect(again.headers['content-type']).toMatch(/^text\/html/);
      expect(again.text).toContain('This link was already used');
      expect(again.headers['content-security-policy']).toMatch(/default-src 'none'/);
    });

    it('answers an Idempotency-Key request with the same link again, and never with the stored row', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      const send = () => testApp.http.post('/v1/portal-sessions').set({ ...bearer(tenant.testKey), 'Idempotency-Key': `portal-${customer.id}` }).send({ customer_id: customer.id }).expect(201);
      const first = await send();
      const replayed = await send();
      expect(first.body.data.url).toMatch(/\/portal\/open\//);
      expect(replayed.body.data).toEqual(first.body.data);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(JSON.stringify(first.body)).not.toMatch(/token_hash|csrf/);
    });

    it('opens a link once when two browsers race for it', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      const created = await createSession(tenant.testKey, { customer_id: customer.id });
      const path = new URL(created.url).pathname;
      const statuses = await Promise.all([testApp.http.get(path), testApp.http.get(path), testApp.http.get(path)].map(async (request) => (await request).status));
      expect(statuses.sort()).toEqual([303, 410, 410]);
    });

    it('says a link expired after an hour, and starts nothing', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      const clock = controlClock(testApp);
      try {
        const created = await createSession(tenant.testKey, { store_customer_id: customer.store_customer_id });
        clock.advance(60 * 60 * 1000 + 1);
        const expired = await testApp.http.get(new URL(created.url).pathname).expect(410);
        expect(expired.text).toContain('This link expired');
        expect(expired.headers['set-cookie']).toBeUndefined();
      } finally {
        clock.release();
      }
    });

    it('ends a portal session after 12 idle hours', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      const clock = controlClock(testApp);
      try {
        const portal = await open((await createSession(tenant.testKey, { customer_id: customer.id })).url);
        clock.advance(11 * 60 * 60 * 1000);
        await testApp.http.get('/portal/api/entitlements').set(as(portal)).expect(200);
        clock.advance(12 * 60 * 60 * 1000 + 1000);
        expect((await testApp.http.get('/portal/api/entitlements').set(as(portal)).expect(401)).body.error.code).toBe('INVALID_SESSION');
      } finally {
        clock.release();
      }
    });

    it('prunes spent links and sessions a week after they could last be used, keeping the clear pages until then', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      const unopened = await createSession(tenant.testKey, { customer_id: customer.id });
      const opened = await createSession(tenant.testKey, { customer_id: customer.id });
      await open(opened.url);
      const exists = async (id: string) => (await database().query('SELECT id FROM portal_sessions WHERE id = $1', [id])).length === 1;
      const hour = 60 * 60 * 1000;
      const day = 24 * hour;
      const pruner = testApp.app.get(Pruner);
      const clock = controlClock(testApp);
      try {
        clock.advance(hour + 6 * day);
        await pruner.run();
        expect([await exists(unopened.id), await exists(opened.id)]).toEqual([true, true]);
        expect((await testApp.http.get(new URL(unopened.url).pathname).expect(410)).text).toContain('This link expired');
        expect((await testApp.http.get(new URL(opened.url).pathname).expect(410)).text).toContain('This link was already used');
        clock.advance(day + 60_000);
        await pruner.run();
        expect([await exists(unopened.id), await exists(opened.id)]).toEqual([false, true]);
        clock.advance(12 * hour);
        const report = await pruner.run();
        expect(Object.keys(report.deleted)).toContain('portal_sessions');
      } finally {
        clock.release();
      }
      expect(await exists(opened.id)).toBe(false);
    });

    it('answers an unknown link with a page, never a session', async () => {
      const unknown = await testApp.http.get(`/portal/open/${'A'.repeat(49)}`).expect(404);
      expect(unknown.text).toContain('This link is not valid');
      expect(unknown.headers['set-cookie']).toBeUndefined();
    });

    it('takes return_url over https only (http on loopback), and one way to name the customer', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      for (const returnUrl of ['https://shop.example.com/back', 'http://127.0.0.1:4000/back', 'http://localhost/back', 'http://[::1]:8080/']) {
        await testApp.http.post('/v1/portal-sessions').set(bearer(tenant.testKey)).send({ customer_id: customer.id, return_url: returnUrl }).expect(201);
      }
      for (const returnUrl of ['http://shop.example.com/back', 'javascript:alert(1)', 'ftp://example.com/', 'not a url', 'https://user:secret@example.com/']) {
        const refused = await testApp.http.post('/v1/portal-sessions').set(bearer(tenant.testKey)).send({ customer_id: customer.id, return_url: returnUrl }).expect(400);
        expect(refused.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'return_url' });
      }
      expect((await testApp.http.post('/v1/portal-sessions').set(bearer(tenant.testKey)).send({}).expect(400)).body.error.code).toBe('MISSING_REQUIRED_FIELD');
      const both = { customer_id: customer.id, store_customer_id: customer.store_customer_id };
      expect((await testApp.http.post('/v1/portal-sessions').set(bearer(tenant.testKey)).send(both).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
      // Another mode's customer is unknown here.
      const missing = await testApp.http.post('/v1/portal-sessions').set(bearer(tenant.liveKey)).send({ customer_id: customer.id }).expect(404);
      expect(missing.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    });

    it('needs portal:write: a key without it and a viewer session are 403, a support session may; the branding needs portal_settings:write, which support lacks', async () => {
      const customer = await fixtures.customer(tenant.merchantId, 'test');
      const reader = await testApp.createKey(tenant.merchantId, 'test', ['customers:read', 'portal:read']);
      const refused = await testApp.http.post('/v1/portal-sessions').set(bearer(reader)).send({ customer_id: customer.id }).expect(403);
      expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
      await testApp.http.patch('/v1/portal-settings').set(bearer(reader)).send({ display_name: 'x' }).expect(403);
      await testApp.http.get('/v1/portal-settings').set(bearer(reader)).expect(200);
      const writer = await testApp.createKey(tenant.merchantId, 'test', ['portal:write']);
      await testApp.http.post('/v1/portal-sessions').set(bearer(writer)).send({ customer_id: customer.id }).expect(201);
      // A link is not the branding: portal:write alone may not change it.
      expect((await testApp.http.patch('/v1/portal-settings').set(bearer(writer)).send({ display_name: 'x' }).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
      const brander = await testApp.createKey(tenant.merchantId, 'test', ['portal_settings:write']);
      await testApp.http.patch('/v1/portal-settings').set(bearer(brander)).send({ display_name: 'Branded' }).expect(200);

      const member = async (role: string) => {
        const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
        const created = await testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email, role }).expect(201);
        await testApp.http.post('/dashboard/api/setup').send({ token: new URL(created.body.data.setup_url).hash.replace('#token=', ''), password: PASSWORD }).expect(200);
        const signedIn = await testApp.http.post('/dashboard/api/sign-in').send({ email, password: PASSWORD }).expect(200);
        return { Cookie: ([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0].split(';')[0], 'X-CSRF-Token': signedIn.body.data.csrf_token, 'Eh-Mode': 'test' };
      };
      const viewer = await testApp.http.post('/v1/portal-sessions').set(await member('viewer')).send({ customer_id: customer.id }).expect(403);
      expect(viewer.body.error.code).toBe('INSUFFICIENT_SCOPE');
      const support = await member('support');
      await testApp.http.post('/v1/portal-sessions').set(support).send({ customer_id: customer.id }).expect(201);
      expect((await testApp.http.patch('/v1/portal-settings').set(support).send({ display_name: 'Support' }).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
      await testApp.http.patch('/v1/portal-settings').set(await member('developer')).send({ display_name: 'Developer' }).expect(200);
    });
  });

  describe('the portal session', () => {
    let customerId: string;
    let portal: Portal;
    let file: Awaited<ReturnType<typeof fileDelivery>>;
    const bytes = Buffer.from('the portal file, byte for byte');

    beforeAll(async () => {
      customerId = (await fixtures.customer(tenant.merchantId, 'live')).id;
      file = await fileDelivery(tenant.liveKey, tenant.merchantId, 'live', customerId, bytes);
      portal = await open((await createSession(tenant.liveKey, { customer_id: customerId })).url);
    });

    it('lists the deliveries newest first, the inactive apart and without delivery, text as given', async () => {
      const html = '<b>Run</b> <script>alert(1)</script> setup.exe';
      const instructions = await insertProduct(testApp, tenant.merchantId, 'live', {
        description: 'How to install',
        fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_url: null, access_instructions: html },
      });
      const link = await insertProduct(testApp, tenant.merchantId, 'live', { fulfillment_config: { delivery_method: 'URL', access_url: 'https://course.example.com/enroll', access_instructions: null } });
      const revokedProduct = await insertProduct(testApp, tenant.merchantId, 'live');
      await fixtures.entitlement(tenant.merchantId, 'live', customerId, link.id);
      const instructed = await fixtures.entitlement(tenant.merchantId, 'live', customerId, instructions.id);
      const revoked = await fixtures.entitlement(tenant.merchantId, 'live', customerId, revokedProduct.id, { status: 'revoked' });
      const expired = await fixtures.entitlement(tenant.merchantId, 'live', customerId, link.id, { expires_at: new Date(Date.now() - 1000) });

      const { data } = (await testApp.http.get('/portal/api/entitlements').set(as(portal, false)).expect(200)).body;
      expect(data.active.map((item: { id: string }) => item.id)[0]).toBe(instructed.id);
      const byId = new Map([...data.active, ...data.inactive].map((item: { id: string }) => [item.id, item]));
      expect(byId.get(instructed.id)).toMatchObject({ description: 'How to install', status: 'active', delivery: { method: 'INSTRUCTIONS', instructions: html } });
      expect(byId.get(file.entitlement.id)).toMatchObject({ delivery: { method: 'FILE', files: [{ id: file.fileId, file_name: 'book.pdf', file_size: bytes.length }] } });
      expect(data.active.find((item: { product_id: string }) => item.product_id === link.id)).toMatchObject({ delivery: { method: 'URL', url: 'https://course.example.com/enroll' } });
      expect(byId.get(revoked.id)).toMatchObject({ status: 'revoked', delivery: null });
      expect(byId.get(expired.id)).toMatchObject({ status: 'expired', delivery: null });
      expect(data.inactive.map((item: { id: string }) => item.id).sort()).toEqual([revoked.id, expired.id].sort());
    });

    it('downloads through the API path: the same bytes, bandwidth counted, the same download.completed event', async () => {
      const bandwidth = await bandwidthOf(tenant.merchantId, 'live');
      const path = `/portal/api/entitlements/${file.entitlement.id}/files/${file.fileId}/download`;
      const refused = await testApp.http.post(path).set(as(portal, false)).expect(403);
      expect(refused.body.error.code).toBe('CSRF_TOKEN_INVALID');
      await testApp.http.post(path).set({ ...as(portal, false), 'X-CSRF-Token': 'wrong' }).expect(403);
      expect(await downloadEvents(file.entitlement.id)).toHaveLength(0);

      const issued = await testApp.http.post(path).set(as(portal)).expect(200);
      expect(issued.body.data.download_url).toEqual(expect.any(String));
      const fetched = await fetch(issued.body.data.download_url);
      expect(fetched.status).toBe(200);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
      expect(await bandwidthOf(tenant.merchantId, 'live')).toBe(bandwidth + bytes.length);

      await testApp.http.get(`/v1/files/${file.fileId}/download`).query({ entitlement_id: file.entitlement.id, customer_id: customerId }).set(bearer(tenant.liveKey)).expect(200);
      const [fromPortal, fromApi] = await downloadEvents(file.entitlement.id);
      expect(Object.keys(fromPortal).sort()).toEqual(Object.keys(fromApi).sort());
      expect(fromPortal).toMatchObject({ file_id: file.fileId, entitlement_id: file.entitlement.id, customer_id: customerId, file_size: bytes.length });
    });

    it("answers 404 to every other customer's, merchant's and mode's id", async () => {
      const otherCustomer = await fixtures.customer(tenant.merchantId, 'live');
      const theirs = await fileDelivery(tenant.liveKey, tenant.merchantId, 'live', otherCustomer.id, Buffer.from('theirs'));
      const otherMerchant = await testApp.createTenant('free');
      const elsewhere = await fileDelivery(otherMerchant.liveKey, otherMerchant.merchantId, 'live', (await fixtures.customer(otherMerchant.merchantId, 'live')).id, Buffer.from('elsewhere'));
      const testCustomer = await fixtures.customer(tenant.merchantId, 'test');
      const otherMode = await fileDelivery(tenant.testKey, tenant.merchantId, 'test', testCustomer.id, Buffer.from('test mode'));
      for (const target of [theirs, elsewhere, otherMode]) {
        const response = await testApp.http.post(`/portal/api/entitlements/${target.entitlement.id}/files/${target.fileId}/download`).set(as(portal)).expect(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      }
      // Its own entitlement with another product's file.
      await testApp.http.post(`/portal/api/entitlements/${file.entitlement.id}/files/${theirs.fileId}/download`).set(as(portal)).expect(404);
      const { data } = (await testApp.http.get('/portal/api/entitlements').set(as(portal)).expect(200)).body;
      const shown = JSON.stringify(data);
      for (const target of [theirs, elsewhere, otherMode]) expect(shown).not.toContain(target.entitlement.id);
      expect(await downloadEvents(theirs.entitlement.id)).toHaveLength(0);
    });

    it("lists the customer's license keys with their devices, and deactivates one (404 for another customer's)", async () => {
      const product = await testApp.http
        .post('/v1/products')
        .set(bearer(tenant.liveKey))
        .send({ name: 'Desktop app', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/app' }, license: { activation_limit: 2 } })
        .expect(201);
      const customer = (await database().query('SELECT store_customer_id FROM customers WHERE id = $1', [customerId]))[0].store_customer_id as string;
      const mine = await testApp.http.post('/v1/entitlements').set(bearer(tenant.liveKey)).send({ store_customer_id: customer, product_id: product.body.data.id }).expect(201);
      const theirs = await testApp.http.post('/v1/entitlements').set(bearer(tenant.liveKey)).send({ store_customer_id: `someone-else-${Date.now()}`, product_id: product.body.data.id }).expect(201);
      const keyOf = async (entitlementId: string) => (await testApp.http.get('/v1/license-keys').query({ entitlement_id: entitlementId }).set(bearer(tenant.liveKey)).expect(200)).body.data[0];
      const myKey = await keyOf(mine.body.data.id);
      const theirKey = await keyOf(theirs.body.data.id);
      const activation = (await testApp.http.post('/v1/licenses/activate').send({ key: myKey.key, fingerprint: 'laptop', name: 'Laptop' }).expect(201)).body.data.activation;
      const theirActivation = (await testApp.http.post('/v1/licenses/activate').send({ key: theirKey.key, fingerprint: 'desk', name: 'Desk' }).expect(201)).body.data.activation;

      const listed = (await testApp.http.get('/portal/api/license-keys').set(as(portal)).expect(200)).body.data;
      expect(listed).toEqual([expect.objectContaining({ id: myKey.id, key: myKey.key, activations_count: 1, activations: [expect.objectContaining({ id: activation.id, name: 'Laptop' })] })]);

      // Another customer's key, or their device under my key: 404; without CSRF: 403.
      await testApp.http.delete(`/portal/api/license-keys/${theirKey.id}/activations/${theirActivation.id}`).set(as(portal)).expect(404);
      await testApp.http.delete(`/portal/api/license-keys/${myKey.id}/activations/${theirActivation.id}`).set(as(portal)).expect(404);
      await testApp.http.delete(`/portal/api/license-keys/${myKey.id}/activations/${activation.id}`).set(as(portal, false)).expect(403);
      await testApp.http.delete(`/portal/api/license-keys/${myKey.id}/activations/${activation.id}`).set(as(portal)).expect(200);
      expect((await testApp.http.get(`/v1/license-keys/${myKey.id}`).set(bearer(tenant.liveKey)).expect(200)).body.data.activations_count).toBe(0);
      expect((await testApp.http.get(`/v1/license-keys/${theirKey.id}`).set(bearer(tenant.liveKey)).expect(200)).body.data.activations_count).toBe(1);
      const events = await database().query(`SELECT count(*)::int AS count FROM events WHERE type = 'license.deactivated' AND data->'object'->>'id' = $1`, [activation.id]);
      expect(events[0].count).toBe(1);
      // The audit log names the customer as who deactivated it (DESIGN §11), once; the refused attempts left no row.
      const audited = await database().query(`SELECT actor_type, actor_id, action, object_type FROM audit_log WHERE object_id = $1`, [activation.id]);
      expect(audited).toEqual([{ actor_type: 'customer', actor_id: customerId, action: 'portal.deactivate', object_type: 'license_activation' }]);
    });

    it('is good for nothing else: /v1 and the dashboard refuse the portal cookie, the portal refuses keys and dashboard sessions', async () => {
      expect((await testApp.http.get('/v1/entitlements').set(as(portal)).expect(401)).body.error.code).toBe('INVALID_API_KEY');
      await testApp.http.get(`/v1/customers/${customerId}`).set({ ...as(portal), 'Eh-Mode': 'live' }).expect(401);
      await testApp.http.post('/v1/portal-sessions').set(as(portal)).send({ customer_id: customerId }).expect(401);
      expect((await testApp.http.get('/dashboard/api/session').set(as(portal)).expect(401)).body.error.code).toBe('INVALID_SESSION');
      await testApp.http.get('/portal/api/entitlements').set(bearer(tenant.liveKey)).expect(401);
      await testApp.http.get('/portal/api/entitlements').expect(401);
      await testApp.http.get('/portal/api/entitlements').set({ Cookie: 'eh_portal=forged-cookie-value' }).expect(401);
    });

    it('signs out: the cookie stops working', async () => {
      const other = await open((await createSession(tenant.liveKey, { customer_id: customerId })).url);
      await testApp.http.post('/portal/api/sign-out').set(as(other, false)).expect(403);
      await testApp.http.post('/portal/api/sign-out').set(as(other)).expect(200);
      await testApp.http.get('/portal/api/entitlements').set(as(other)).expect(401);
    });
  });

  describe('the portal page', () => {
    it('is served at /portal under a strict Content-Security-Policy, in at most 60 KB of gzip JavaScript', async () => {
      const page = await testApp.http.get('/portal/').expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const policy = page.headers['content-security-policy'];
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('unsafe-inline');
      expect(policy).not.toContain('unsafe-eval');
      // The app's own routes are not the page: a reload of /portal/anything is the page again.
      expect((await testApp.http.get('/portal/anything').expect(200)).text).toBe(page.text);
      const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((match) => match[1]);
      expect(scripts.length).toBeGreaterThan(0);
      let gzipBytes = 0;
      for (const script of scripts) {
        const response = await testApp.http.get(script).buffer(true).parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        }).expect(200);
        gzipBytes += gzipSync(response.body as Buffer, { level: 9 }).length;
      }
      expect(gzipBytes).toBeLessThanOrEqual(60 * 1024);
      // No script or style is inline: the policy would refuse it.
      expect(page.text).not.toMatch(/<script(?![^>]*src=)[^>]*>/);
      expect(page.text).not.toContain('<style');
    });
  });

  describe('portal settings', () => {
    it('keeps branding per merchant and mode, https URLs and #rrggbb only, and the portal shows it', async () => {
      const own = await testApp.createTenant('free');
      expect((await testApp.http.get('/v1/portal-settings').set(bearer(own.testKey)).expect(200)).body.data).toEqual({
        display_name: null,
        accent_color: null,
        logo_url: null,
        support_url: null,
        updated_at: null,
      });
      const branding = { display_name: 'Field Sketching Co.', accent_color: '#0A7D45', logo_url: 'https://shop.example.com/logo.png', support_url: 'https://shop.example.com/help' };
      const saved = (await testApp.http.patch('/v1/portal-settings').set(bearer(own.testKey)).send(branding).expect(200)).body.data;
      expect(saved).toMatchObject({ ...branding, accent_color: '#0a7d45' });
      expect((await testApp.http.patch('/v1/portal-settings').set(bearer(own.testKey)).send({ support_url: null }).expect(200)).body.data).toMatchObject({ display_name: 'Field Sketching Co.', support_url: null });
      for (const body of [{ accent_color: 'red' }, { accent_color: '#12345' }, { logo_url: 'http://shop.example.com/logo.png' }, { support_url: 'javascript:alert(1)' }]) {
        expect((await testApp.http.patch('/v1/portal-settings').set(bearer(own.testKey)).send(body).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
      }
      // The other mode has its own (none yet).
      expect((await testApp.http.get('/v1/portal-settings').set(bearer(own.liveKey)).expect(200)).body.data.display_name).toBeNull();

      const customer = await fixtures.customer(own.merchantId, 'test');
      const portal = await open((await createSession(own.testKey, { customer_id: customer.id })).url);
      expect((await testApp.http.get('/portal/api/session').set(as(portal)).expect(200)).body.data.branding).toMatchObject({
        display_name: 'Field Sketching Co.',
        accent_color: '#0a7d45',
        logo_url: 'https://shop.example.com/logo.png',
      });
      const livePortal = await open((await createSession(own.liveKey, { customer_id: (await fixtures.customer(own.merchantId, 'live')).id })).url);
      expect((await testApp.http.get('/portal/api/session').set(as(livePortal)).expect(200)).body.data.branding.display_name).toMatch(/^Test merchant/);
    });
  });
});

/**
 * Guessing portal links (DESIGN §13): a link is a long random secret like a session cookie, so a
 * guess counts as a failed authentication of the address, past the limit every unknown link is
 * 429 (a page, with no lookup for a token whose keyed checksum fails), and a real link still opens
 * from that very address.
 */
describe('customer portal: guessing links', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ AUTH_FAILURE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => testApp.close());

  it('answers 429 past the limit, and still opens a real link from the same address', async () => {
    const tenant = await testApp.createTenant('free');
    const customer = await new FileFixtures(testApp).customer(tenant.merchantId, 'test');
    const created = await testApp.http.post('/v1/portal-sessions').set(bearer(tenant.testKey)).send({ customer_id: customer.id }).expect(201);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) statuses.push((await testApp.http.get(`/portal/open/${'G'.repeat(43)}${attempt}aaaaa`)).status);
    expect(statuses.slice(0, 2)).toEqual([404, 404]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const limited = await testApp.http.get(`/portal/open/${'H'.repeat(49)}`).expect(429);
    expect(limited.text).toContain('Too many attempts');
    expect(limited.headers['set-cookie']).toBeUndefined();
    // Unknown portal cookies count the same way.
    await testApp.http.get('/portal/api/session').set({ Cookie: 'eh_portal=guessed' }).expect(429);
    // The real link: its checksum holds, so it is looked up and opens.
    await testApp.http.get(new URL(created.body.data.url).pathname).expect(303);
  });
});
