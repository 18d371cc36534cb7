import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';

const admin = bearer(TEST_ADMIN_TOKEN);
const ISO_MILLISECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UNKNOWN_MERCHANT = 'mer_01jd8x3k2m4n5p6q7r8s9t0v1w';

describe('admin API', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  function createMerchant(body: Record<string, unknown> = { name: 'Acme Digital', plan: 'growth' }) {
    return testApp.http.post('/admin/v1/merchants').set(admin).send(body);
  }

  it('creates, reads and updates a merchant', async () => {
    const created = await createMerchant().expect(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^mer_[0-9a-z]{26}$/),
      name: 'Acme Digital',
      plan: 'growth',
      limits: { max_file_size_bytes: null, storage_bytes: null, bandwidth_bytes: null },
      overage_price_per_gib: null,
      stripe_customer_id: null,
      created_at: expect.stringMatching(ISO_MILLISECONDS),
    });
    expect(created.body.meta.request_id).toBe(created.headers['x-request-id']);
    const id = created.body.data.id as string;

    const read = await testApp.http.get(`/admin/v1/merchants/${id}`).set(admin).expect(200);
    expect(read.body.data).toEqual(created.body.data);

    const renamed = await testApp.http.patch(`/admin/v1/merchants/${id}`).set(admin).send({ name: 'Acme Ltd' }).expect(200);
    expect(renamed.body.data).toEqual({ ...created.body.data, name: 'Acme Ltd' });
    const replanned = await testApp.http.patch(`/admin/v1/merchants/${id}`).set(admin).send({ plan: 'pro' }).expect(200);
    expect(replanned.body.data).toEqual({ ...created.body.data, name: 'Acme Ltd', plan: 'pro' });
    const unchanged = await testApp.http.patch(`/admin/v1/merchants/${id}`).set(admin).send({}).expect(200);
    expect(unchanged.body.data).toEqual(replanned.body.data);
  });

  it("applies a plan change to the merchant's very next request on this instance (the plan cache forgets it)", async () => {
    const merchantId = (await createMerchant({ name: 'Replanned', plan: 'free' }).expect(201)).body.data.id as string;
    const key = await testApp.createKey(merchantId, 'test', ['files:write']);
    // 60 MiB: over the free plan's 50 MiB file limit, within growth's 200 MiB.
    const upload = () => testApp.http.post('/v1/files/upload-url').set(bearer(key)).send({ file_name: 'big.zip', file_size: 60 * 1024 * 1024, mime_type: 'application/zip' });
    const refused = await upload();
    expect(refused.body.error).toMatchObject({ code: 'FILE_TOO_LARGE' });
    await testApp.http.patch(`/admin/v1/merchants/${merchantId}`).set(admin).send({ plan: 'growth' }).expect(200);
    await upload().expect(201);
  });

  it('creates keys with their secret once, lists them without secrets, and revokes them', async () => {
    const merchantId = (await createMerchant().expect(201)).body.data.id as string;
    const created = await testApp.http
      .post(`/admin/v1/merchants/${merchantId}/api-keys`)
      .set(admin)
      .send({ mode: 'live', scopes: ['entitlements:read', 'products:read'], name: 'checkout backend' })
      .expect(201);
    const key = created.body.data;
    expect(key).toEqual({
      id: expect.stringMatching(/^key_[0-9a-z]{26}$/),
      key: expect.stringMatching(/^eh_(test|live)_[0-9A-Za-z]{32,}$/),
      prefix: expect.any(String),
      mode: 'live',
      scopes: ['entitlements:read', 'products:read'],
      name: 'checkout backend',
      created_at: expect.stringMatching(ISO_MILLISECONDS),
      last_used_at: null,
      revoked_at: null,
    });
    expect(key.key.startsWith('eh_live_')).toBe(true);
    expect(key.prefix).toBe(key.key.slice(0, 12));

    const wildcard = await testApp.http
      .post(`/admin/v1/merchants/${merchantId}/api-keys`)
      .set(admin)
      .send({ mode: 'test', scopes: ['products:read', '*'] })
      .expect(201);
    expect(wildcard.body.data).toMatchObject({ mode: 'test', scopes: ['*'], name: null });
    expect(wildcard.body.data.key).toMatch(/^eh_test_[0-9A-Za-z]{32,}$/);

    // The key works on the API with its own scopes.
    await testApp.http.get('/v1/products').set(bearer(key.key)).expect(200);

    const listed = await testApp.http.get(`/admin/v1/merchants/${merchantId}/api-keys`).set(admin).expect(200);
    expect(listed.body.data.map((item: { id: string }) => item.id)).toEqual([wildcard.body.data.id, key.id]);
    const serialized = JSON.stringify(listed.body);
    expect(serialized).not.toContain(key.key);
    expect(serialized).not.toContain(wildcard.body.data.key);
    for (const item of listed.body.data) {
      expect(Object.keys(item).sort()).toEqual(['created_at', 'id', 'last_used_at', 'mode', 'name', 'prefix', 'revoked_at', 'scopes']);
      expect(serialized).not.toMatch(/[0-9a-f]{64}/);
    }

    const revoked = await testApp.http.delete(`/admin/v1/api-keys/${key.id}`).set(admin).expect(200);
    expect(revoked.body.data).toMatchObject({ id: key.id, revoked_at: expect.stringMatching(ISO_MILLISECONDS) });
    expect(revoked.body.data).not.toHaveProperty('key');
    await testApp.http.get('/v1/products').set(bearer(key.key)).expect(401);
    // Revoking again keeps the first revocation time.
    const again = await testApp.http.delete(`/admin/v1/api-keys/${key.id}`).set(admin).expect(200);
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);
    const afterRevoke = await testApp.http.get(`/admin/v1/merchants/${merchantId}/api-keys`).set(admin).expect(200);
    expect(afterRevoke.body.data.find((item: { id: string }) => item.id === key.id).revoked_at).toBe(revoked.body.data.revoked_at);
  });

  describe('validation', () => {
    let merchantId: string;

    beforeAll(async () => {
      merchantId = (await createMerchant().expect(201)).body.data.id as string;
    });

    it.each([
      [{ plan: 'free' }, 'MISSING_REQUIRED_FIELD', 'name'],
      [{ name: 'Acme' }, 'MISSING_REQUIRED_FIELD', 'plan'],
      [{ name: 'Acme', plan: 'gold' }, 'INVALID_PARAMETER', 'plan'],
      [{ name: '', plan: 'free' }, 'INVALID_PARAMETER', 'name'],
      [{ name: 42, plan: 'free' }, 'INVALID_PARAMETER', 'name'],
      [{ name: 'Acme', plan: 'free', colour: 'red' }, 'INVALID_PARAMETER', 'colour'],
    ])('refuses merchant %j with %s on %s', async (body, code, param) => {
      const response = await createMerchant(body).expect(400);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
      expect(response.body.error.message).toContain(param);
    });

    it('refuses a bad plan or an unknown field on update', async () => {
      const badPlan = await testApp.http.patch(`/admin/v1/merchants/${merchantId}`).set(admin).send({ plan: 'platinum' }).expect(400);
      expect(badPlan.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'plan' });
      const unknown = await testApp.http.patch(`/admin/v1/merchants/${merchantId}`).set(admin).send({ id: 'mer_x' }).expect(400);
      expect(unknown.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'id' });
    });

    it.each([
      [{ scopes: ['*'] }, 'MISSING_REQUIRED_FIELD', 'mode'],
      [{ mode: 'test' }, 'MISSING_REQUIRED_FIELD', 'scopes'],
      [{ mode: 'prod', scopes: ['*'] }, 'INVALID_PARAMETER', 'mode'],
      [{ mode: 'test', scopes: [] }, 'INVALID_PARAMETER', 'scopes'],
      [{ mode: 'test', scopes: ['products:delete'] }, 'INVALID_PARAMETER', 'scopes'],
      [{ mode: 'test', scopes: 'products:read' }, 'INVALID_PARAMETER', 'scopes'],
      [{ mode: 'test', scopes: ['*'], secret: 'x' }, 'INVALID_PARAMETER', 'secret'],
    ])('refuses API key %j with %s on %s', async (body, code, param) => {
      const response = await testApp.http.post(`/admin/v1/merchants/${merchantId}/api-keys`).set(admin).send(body).expect(400);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    });

    it('names the unknown scope', async () => {
      const response = await testApp.http
        .post(`/admin/v1/merchants/${merchantId}/api-keys`)
        .set(admin)
        .send({ mode: 'test', scopes: ['products:read', 'products:delete'] })
        .expect(400);
      expect(response.body.error.message).toContain('products:delete');
    });
  });

  describe('not found', () => {
    it.each([UNKNOWN_MERCHANT, 'mer_', 'nope', 'key_01jd8x3k2m4n5p6q7r8s9t0v1w', "mer_' OR 1=1 --", `mer_${'0'.repeat(200)}`])(
      'answers 404 MERCHANT_NOT_FOUND for merchant id %p',
      async (id) => {
        const path = `/admin/v1/merchants/${encodeURIComponent(id)}`;
        for (const response of [
          await testApp.http.get(path).set(admin),
          await testApp.http.patch(path).set(admin).send({ name: 'x' }),
          await testApp.http.get(`${path}/api-keys`).set(admin),
          await testApp.http.post(`${path}/api-keys`).set(admin).send({ mode: 'test', scopes: ['*'] }),
        ]) {
          expect(response.status).toBe(404);
          expect(response.body.error).toMatchObject({ type: 'not_found_error', code: 'MERCHANT_NOT_FOUND' });
        }
      },
    );

    it.each(['key_01jd8x3k2m4n5p6q7r8s9t0v1w', 'nope', UNKNOWN_MERCHANT])('answers 404 API_KEY_NOT_FOUND revoking %p', async (id) => {
      const response = await testApp.http.delete(`/admin/v1/api-keys/${id}`).set(admin).expect(404);
      expect(response.body.error).toMatchObject({ type: 'not_found_error', code: 'API_KEY_NOT_FOUND' });
    });
  });

  describe('admin token', () => {
    it.each([
      ['no token', {}],
      ['a wrong token', bearer('wrong-admin-token-0123456789')],
      ['the token with another scheme', { Authorization: `Basic ${TEST_ADMIN_TOKEN}` }],
      ['the token with a suffix', bearer(`${TEST_ADMIN_TOKEN}x`)],
    ])('answers 401 INVALID_API_KEY with %s', async (_label, headers) => {
      const response = await testApp.http.post('/admin/v1/merchants').set(headers).send({ name: 'Acme', plan: 'free' }).expect(401);
      expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'INVALID_API_KEY' });
    });

    it('does not accept an API key in place of the token, nor the token as an API key', async () => {
      const tenant = await testApp.createTenant();
      await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}`).set(bearer(tenant.testKey)).expect(401);
      await testApp.http.get('/v1/products').set(admin).expect(401);
    });

    it('checks the token before validating the body', async () => {
      const response = await testApp.http.post('/admin/v1/merchants').set(bearer('wrong-admin-token-0123456789')).send({}).expect(401);
      expect(response.body.error.code).toBe('INVALID_API_KEY');
    });
  });
});

describe('admin API without ADMIN_TOKEN', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ ADMIN_TOKEN: '' });
  });
  afterAll(() => testApp.close());

  it('is off: every admin route is 404 NOT_FOUND, with or without a token', async () => {
    const tenant = await testApp.createTenant();
    for (const headers of [{}, admin]) {
      for (const response of [
        await testApp.http.post('/admin/v1/merchants').set(headers).send({ name: 'Acme', plan: 'free' }),
        await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}`).set(headers),
        await testApp.http.patch(`/admin/v1/merchants/${tenant.merchantId}`).set(headers).send({ name: 'x' }),
        await testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/api-keys`).set(headers).send({ mode: 'test', scopes: ['*'] }),
        await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}/api-keys`).set(headers),
        await testApp.http.delete('/admin/v1/api-keys/key_01jd8x3k2m4n5p6q7r8s9t0v1w').set(headers),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.error).toMatchObject({ type: 'not_found_error', code: 'NOT_FOUND' });
      }
    }
  });
});
