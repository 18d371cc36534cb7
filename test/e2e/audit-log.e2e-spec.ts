import { DataSource } from 'typeorm';
import { Pruner } from '../../src/database/pruner';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const PASSWORD = 'correct horse battery';
const PDF = 'application/pdf';
const admin = bearer(TEST_ADMIN_TOKEN);

interface Member {
  userId: string;
  email: string;
  cookie: string;
  csrf: string;
}

interface AuditRow {
  id: string;
  mode: string | null;
  actor_type: string;
  actor_id: string;
  actor_label: string;
  action: string;
  object_type: string;
  object_id: string | null;
  request_id: string | null;
  client_address: string | null;
  status: string;
}

interface Sent {
  status: number;
  requestId: string;
}

/**
 * DESIGN §11, the audit log: every successful write (key, session, admin token) leaves exactly one
 * row, written in its own statement, on the transaction path and on the combined fast paths (create,
 * download) alike; a refused write leaves none; sign-ins and their failures are recorded; the list
 * filters, pages and refuses without `audit:read`, and never shows another merchant's rows.
 */
describe('audit log', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let fixtures: FileFixtures;
  const members = new Map<string, Member>();

  const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const tokenOf = (setupUrl: string) => new URL(setupUrl).hash.replace('#token=', '');
  const as = (member: Member, mode?: 'test' | 'live') => ({ Cookie: member.cookie, 'X-CSRF-Token': member.csrf, ...(mode ? { 'Eh-Mode': mode } : {}) });
  const of = (role: string) => members.get(role) as Member;

  async function member(merchantId: string, role: string): Promise<Member> {
    const email = uniqueEmail(role);
    const created = await testApp.http.post(`/admin/v1/merchants/${merchantId}/users`).set(admin).send({ email, role }).expect(201);
    await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(created.body.data.setup_url), password: PASSWORD }).expect(200);
    const signedIn = await testApp.http.post('/dashboard/api/sign-in').send({ email, password: PASSWORD }).expect(200);
    const cookie = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? [])[0].split(';')[0];
    return { userId: created.body.data.id, email, cookie, csrf: signedIn.body.data.csrf_token };
  }

  const rowsOf = (merchantId: string): Promise<AuditRow[]> =>
    testApp.app.get(DataSource).query('SELECT * FROM audit_log WHERE merchant_id = $1 ORDER BY created_at, id', [merchantId]);

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    fixtures = new FileFixtures(testApp);
    tenant = await testApp.createTenant('growth');
    other = await testApp.createTenant();
    for (const role of ['owner', 'admin', 'developer', 'support', 'viewer']) members.set(role, await member(tenant.merchantId, role));
  });
  afterAll(() => testApp.close());

  it('records exactly one row per successful write of a burst from keys, sessions and the admin token, and none for a refused one', async () => {
    const key = tenant.testKey;
    const product = await testApp.http
      .post('/v1/products')
      .set(bearer(key))
      .send({ name: 'Audited', store_product_id: `audited-${Date.now()}`, entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'FILE' } })
      .expect(201);
    const productId: string = product.body.data.id;
    const bytes = Buffer.from('audited');
    const upload = await fixtures.uploadUrl(key, { file_name: 'book.pdf', file_size: bytes.length, mime_type: PDF, product_id: productId });
    expect((await putObject(upload.uploadUrl, bytes, PDF)).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(key)).expect(200);
    const customer = await fixtures.customer(tenant.merchantId, 'test');
    const owned = await fixtures.entitlement(tenant.merchantId, 'test', customer.id, productId);
    const toRevoke = await Promise.all([0, 1, 2].map(() => fixtures.entitlement(tenant.merchantId, 'test', customer.id, productId)));
    const keyToRevoke = await testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/api-keys`).set(admin).send({ mode: 'test', scopes: ['entitlements:read'] }).expect(201);
    const before = new Set((await rowsOf(tenant.merchantId)).map((row) => row.id));

    const send = async (call: PromiseLike<{ status: number; headers: Record<string, string> }>): Promise<Sent> => {
      const response = await call;
      return { status: response.status, requestId: response.headers['x-request-id'] };
    };
    const grant = (headers: Record<string, string>, index: number) =>
      send(testApp.http.post('/v1/entitlements').set(headers).send({ store_customer_id: `burst-${index}`, product_id: productId }));
    const writes: Array<Promise<Sent>> = [
      // Keys: the combined fast path (no Idempotency-Key), the transaction path (with one), downloads' combined write.
      ...[0, 1, 2, 3, 4].map((index) => grant(bearer(key), index)),
      ...[5, 6, 7].map((index) => grant({ ...bearer(key), 'Idempotency-Key': `audit-burst-${index}-${Date.now()}` }, index)),
      ...[0, 1, 2].map(() => send(testApp.http.get(`/v1/files/${upload.fileId}/download`).query({ entitlement_id: owned.id, customer_id: customer.id }).set(bearer(key)))),
      ...toRevoke.map((entitlement) => send(testApp.http.post(`/v1/entitlements/${entitlement.id}/revoke`).set(bearer(key)).send({ reason: 'burst' }))),
      // Sessions.
      ...[8, 9].map((index) => grant(as(of('owner'), 'test'), index)),
      grant(as(of('support'), 'test'), 10),
      send(testApp.http.post('/dashboard/api/api-keys').set(as(of('developer'))).send({ mode: 'test', scopes: ['entitlements:read'], name: 'burst' })),
      // The admin token.
      send(testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/api-keys`).set(admin).send({ mode: 'live', scopes: ['entitlements:read'] })),
      send(testApp.http.delete(`/admin/v1/api-keys/${keyToRevoke.body.data.id}`).set(admin)),
      send(testApp.http.patch(`/admin/v1/merchants/${tenant.merchantId}`).set(admin).send({ plan: 'growth' })),
    ];
    const refused: Array<Promise<Sent>> = [
      // 404: no such product; 409: the product's store id is taken; 403: a viewer may not grant; 422 of a bad body.
      send(testApp.http.post('/v1/entitlements').set(bearer(key)).send({ store_customer_id: 'refused', product_id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' })),
      send(
        testApp.http
          .post('/v1/products')
          .set(bearer(key))
          .send({ name: 'Taken', store_product_id: product.body.data.store_product_id, entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'FILE' } }),
      ),
      grant(as(of('viewer'), 'test'), 11),
      send(testApp.http.post(`/v1/entitlements/${owned.id}/suspend`).set(bearer(key)).send({ reason: 42 })),
    ];
    const succeeded = await Promise.all(writes);
    const failed = await Promise.all(refused);
    for (const sent of succeeded) expect(sent.status).toBeLessThan(300);
    expect(failed.map((sent) => sent.status)).toEqual([404, 409, 403, 400]);

    const rows = (await rowsOf(tenant.merchantId)).filter((row) => !before.has(row.id));
    const recorded = rows.map((row) => row.request_id);
    // One row per successful write, none without one, none for a refused write.
    expect([...recorded].sort()).toEqual(succeeded.map((sent) => sent.requestId).sort());
    expect(new Set(recorded).size).toBe(recorded.length);
    for (const sent of failed) expect(recorded).not.toContain(sent.requestId);

    // The state changes agree with the rows: each new entitlement is the object of one create row, each revoke of one revoke row.
    const created = await testApp.app
      .get(DataSource)
      .query(`SELECT id FROM entitlements WHERE merchant_id = $1 AND customer_id IN (SELECT id FROM customers WHERE merchant_id = $1 AND store_customer_id LIKE 'burst-%')`, [tenant.merchantId]);
    const createRows = rows.filter((row) => row.action === 'entitlements.create');
    expect(createRows.map((row) => row.object_id).sort()).toEqual(created.map((row: { id: string }) => row.id).sort());
    expect(createRows.every((row) => row.object_type === 'entitlement' && row.mode === 'test' && row.status === 'succeeded')).toBe(true);
    expect(rows.filter((row) => row.action === 'entitlements.revoke').map((row) => row.object_id).sort()).toEqual(toRevoke.map((entitlement) => entitlement.id).sort());
    const downloads = rows.filter((row) => row.action === 'files.download');
    expect(downloads).toHaveLength(3);
    expect(downloads.every((row) => row.object_id === upload.fileId && row.actor_type === 'api_key')).toBe(true);

    // Who: the key by its prefix, the user by email, the admin token.
    const keyRow = createRows.find((row) => row.actor_type === 'api_key') as AuditRow;
    expect(key.startsWith(keyRow.actor_label)).toBe(true);
    expect(rows.filter((row) => row.actor_type === 'user' && row.action === 'entitlements.create').map((row) => row.actor_label).sort()).toEqual(
      [of('owner').email, of('owner').email, of('support').email].sort(),
    );
    expect(rows.find((row) => row.action === 'dashboardApi.createApiKey')).toMatchObject({ actor_id: of('developer').userId, object_type: 'api_key', mode: 'test' });
    expect(rows.find((row) => row.action === 'admin.revokeApiKey')).toMatchObject({ actor_type: 'admin', object_id: keyToRevoke.body.data.id, mode: 'test' });
    expect(rows.find((row) => row.action === 'admin.updateMerchant')).toMatchObject({ actor_type: 'admin', object_id: tenant.merchantId, mode: null });
    expect(rows.every((row) => typeof row.client_address === 'string' && row.client_address.length > 0)).toBe(true);
  });

  it('records sign-ins and failed sign-ins of a known user, role changes and removals', async () => {
    const target = await member(tenant.merchantId, 'viewer');
    await testApp.http.post('/dashboard/api/sign-in').send({ email: target.email, password: 'not the password at all' }).expect(401);
    await testApp.http.patch(`/dashboard/api/team/${target.userId}`).set(as(of('owner'))).send({ role: 'support' }).expect(200);
    // A refused change (an admin may not remove the owner) leaves nothing.
    await testApp.http.delete(`/dashboard/api/team/${of('owner').userId}`).set(as(of('admin'))).expect(403);
    await testApp.http.delete(`/dashboard/api/team/${target.userId}`).set(as(of('admin'))).expect(200);
    const rows = (await rowsOf(tenant.merchantId)).filter((row) => row.object_id === target.userId);
    expect(rows.map((row) => [row.action, row.status, row.actor_id])).toEqual([
      ['admin.createDashboardUser', 'succeeded', 'admin'],
      ['dashboardApi.signIn', 'succeeded', target.userId],
      ['dashboardApi.signIn', 'failed', target.userId],
      ['dashboardTeam.update', 'succeeded', of('owner').userId],
      ['dashboardTeam.remove', 'succeeded', of('admin').userId],
    ]);
    expect(rows.every((row) => row.mode === null)).toBe(true);
    const removalOfOwner = (await rowsOf(tenant.merchantId)).filter((row) => row.action === 'dashboardTeam.remove' && row.object_id === of('owner').userId);
    expect(removalOfOwner).toHaveLength(0);
  });

  it('prunes rows past AUDIT_RETENTION (400 days by default) and keeps the rest', async () => {
    const database = testApp.app.get(DataSource);
    const old = 'aud_00000000000000000000000000';
    await database.query(
      `INSERT INTO audit_log (id, merchant_id, mode, actor_type, actor_id, actor_label, action, object_type, object_id, status, created_at)
       VALUES ($1, $2, 'test', 'system', 'cli', 'cli', 'entitlements.create', 'entitlement', NULL, 'succeeded', now() - interval '401 days')`,
      [old, tenant.merchantId],
    );
    const kept = (await rowsOf(tenant.merchantId)).length;
    const report = await testApp.app.get(Pruner).run();
    expect(report.deleted.audit_log).toBeGreaterThanOrEqual(1);
    const after = await rowsOf(tenant.merchantId);
    expect(after.map((row) => row.id)).not.toContain(old);
    expect(after).toHaveLength(kept - 1);
  });

  describe('GET /v1/audit-log', () => {
    let entitlementId: string;

    beforeAll(async () => {
      const product = await fixtures.product(tenant.merchantId, 'test');
      const granted = await testApp.http.post('/v1/entitlements').set(as(of('owner'), 'test')).send({ store_customer_id: `listed-${Date.now()}`, product_id: product.id }).expect(201);
      entitlementId = granted.body.data.id;
      await testApp.http.post(`/v1/entitlements/${entitlementId}/suspend`).set(as(of('support'), 'test')).send({ reason: 'chargeback' }).expect(200);
      await testApp.http.post(`/v1/entitlements/${entitlementId}/reactivate`).set(bearer(tenant.testKey)).send({}).expect(200);
      await testApp.http.post(`/v1/entitlements/${entitlementId}/revoke`).set(as(of('admin'), 'test')).send({ reason: 'refund' }).expect(200);
      // Another merchant's write on an object of its own.
      const otherProduct = await fixtures.product(other.merchantId, 'test');
      await testApp.http.post('/v1/entitlements').set(bearer(other.testKey)).send({ store_customer_id: 'other', product_id: otherProduct.id }).expect(201);
    });

    it('lists an object\'s history newest first, with who acted, for owner and admin sessions and a key granted audit:read', async () => {
      const auditKey = await testApp.createKey(tenant.merchantId, 'test', ['audit:read']);
      for (const headers of [as(of('owner'), 'test'), as(of('admin'), 'test'), bearer(auditKey)]) {
        const listed = await testApp.http.get('/v1/audit-log').query({ object_id: entitlementId }).set(headers).expect(200);
        expect(listed.body.data.map((row: { action: string }) => row.action)).toEqual(['entitlements.revoke', 'entitlements.reactivate', 'entitlements.suspend', 'entitlements.create']);
        expect(listed.body.data[0]).toMatchObject({
          object: { type: 'entitlement', id: entitlementId },
          actor: { type: 'user', id: of('admin').userId, label: of('admin').email },
          mode: 'test',
          status: 'succeeded',
        });
        expect(listed.body.data[0].id).toMatch(/^aud_/);
        expect(listed.body.data[0].request_id).toMatch(/^req_/);
        expect(listed.body.data[2].actor).toMatchObject({ type: 'user', label: of('support').email });
        expect(listed.body.data[1].actor.type).toBe('api_key');
        expect(listed.body.pagination.total).toBe(4);
      }
    });

    it('filters by actor, action and time, and pages with a cursor', async () => {
      const owner = as(of('owner'), 'test');
      const byActor = await testApp.http.get('/v1/audit-log').query({ actor_id: of('support').userId }).set(owner).expect(200);
      expect(byActor.body.data.length).toBeGreaterThan(0);
      expect(byActor.body.data.every((row: { actor: { id: string } }) => row.actor.id === of('support').userId)).toBe(true);
      const byAction = await testApp.http.get('/v1/audit-log').query({ action: 'entitlements.suspend' }).set(owner).expect(200);
      expect(byAction.body.data.every((row: { action: string }) => row.action === 'entitlements.suspend')).toBe(true);
      const all = await testApp.http.get('/v1/audit-log').query({ limit: 100 }).set(owner).expect(200);
      const newest = all.body.data[0].created_at;
      const none = await testApp.http.get('/v1/audit-log').query({ created_after: newest }).set(owner).expect(200);
      expect(none.body.data).toEqual([]);
      const older = await testApp.http.get('/v1/audit-log').query({ created_before: newest, limit: 100 }).set(owner).expect(200);
      expect(older.body.data.every((row: { created_at: string }) => row.created_at < newest)).toBe(true);

      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: Array<{ id: string }>; pagination: { next_cursor: string | null } } } = await testApp.http
          .get('/v1/audit-log')
          .query({ limit: 3, ...(cursor ? { cursor } : {}) })
          .set(owner)
          .expect(200);
        seen.push(...page.body.data.map((row) => row.id));
        cursor = page.body.pagination.next_cursor;
      } while (cursor !== null && seen.length < 300);
      expect(seen).toEqual(all.body.data.map((row: { id: string }) => row.id));
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('shows this mode\'s rows and the account\'s, never another mode\'s or merchant\'s', async () => {
      const live = await testApp.http.get('/v1/audit-log').query({ object_id: entitlementId }).set(as(of('owner'), 'live')).expect(200);
      expect(live.body.data).toEqual([]);
      const account = await testApp.http.get('/v1/audit-log').query({ action: 'dashboardApi.signIn' }).set(as(of('owner'), 'live')).expect(200);
      expect(account.body.data.length).toBeGreaterThan(0);
      const otherKey = await testApp.createKey(other.merchantId, 'test', ['audit:read']);
      const foreign = await testApp.http.get('/v1/audit-log').query({ object_id: entitlementId }).set(bearer(otherKey)).expect(200);
      expect(foreign.body.data).toEqual([]);
      const theirs = await testApp.http.get('/v1/audit-log').query({ limit: 100 }).set(bearer(otherKey)).expect(200);
      const ours = new Set((await rowsOf(tenant.merchantId)).map((row) => row.id));
      expect(theirs.body.data.length).toBeGreaterThan(0);
      expect(theirs.body.data.some((row: { id: string }) => ours.has(row.id))).toBe(false);
    });

    it('refuses developer, support and viewer sessions and a key without audit:read (403)', async () => {
      for (const role of ['developer', 'support', 'viewer']) {
        const refused = await testApp.http.get('/v1/audit-log').set(as(of(role), 'test')).expect(403);
        expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
      }
      const narrow = await testApp.createKey(tenant.merchantId, 'test', ['entitlements:read', 'events:read']);
      const refused = await testApp.http.get('/v1/audit-log').set(bearer(narrow)).expect(403);
      expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
      await testApp.http.get('/v1/audit-log').query({ created_after: 'yesterday' }).set(as(of('owner'), 'test')).expect(400);
    });

    it('is append-only: no route changes or deletes a row, and the database refuses an UPDATE', async () => {
      for (const method of ['post', 'put', 'patch', 'delete'] as const) {
        const response = await testApp.http[method]('/v1/audit-log').set(bearer(tenant.testKey));
        expect([404, 405]).toContain(response.status);
      }
      await expect(testApp.app.get(DataSource).query(`UPDATE audit_log SET action = 'forged' WHERE merchant_id = $1`, [tenant.merchantId])).rejects.toThrow(/append-only/);
    });
  });
});
