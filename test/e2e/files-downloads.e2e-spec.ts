import { DataSource } from 'typeorm';
import { BandwidthUsageEntity } from '../../src/billing/bandwidth-usage.entity';
import { billingMonth, GIBIBYTE, MEBIBYTE } from '../../src/billing/plans';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const PDF = 'application/pdf';

describe('downloads, customer downloads and plan metering', () => {
  let testApp: TestApp;
  let fixtures: FileFixtures;

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    fixtures = new FileFixtures(testApp);
  });
  afterAll(() => testApp.close());

  /** A CONFIRMED file of `bytes` linked to a new FILE product, and an active entitlement to it. */
  async function setup(tenant: TestTenant, mode: 'live' | 'test' = 'live', bytes = Buffer.from('hello file'), usageLimit?: number) {
    const key = mode === 'live' ? tenant.liveKey : tenant.testKey;
    const product = await fixtures.product(tenant.merchantId, mode, { usageLimit });
    const upload = await fixtures.uploadUrl(key, { file_name: 'book.pdf', file_size: bytes.length, mime_type: PDF, product_id: product.id });
    expect((await putObject(upload.uploadUrl, bytes, PDF)).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(key)).expect(200);
    const customer = await fixtures.customer(tenant.merchantId, mode);
    const entitlement = await fixtures.entitlement(tenant.merchantId, mode, customer.id, product.id, { usage_limit: usageLimit ?? null });
    return { key, product, fileId: upload.fileId, customer, entitlement, bytes };
  }

  const download = (key: string, fileId: string, query: Record<string, string>) =>
    testApp.http.get(`/v1/files/${fileId}/download`).query(query).set(bearer(key));

  async function usage(merchantId: string) {
    const response = await testApp.http.get(`/admin/v1/merchants/${merchantId}/usage`).set(bearer(TEST_ADMIN_TOKEN)).expect(200);
    return response.body.data;
  }

  async function setBandwidth(merchantId: string, mode: 'live' | 'test', bytes: number): Promise<void> {
    await testApp.app
      .get(DataSource)
      .manager.save(BandwidthUsageEntity, { merchant_id: merchantId, mode, month: billingMonth(new Date()), bandwidth_bytes: bytes, overage_bytes: 0 });
  }

  it('download errors, in the reference order', async () => {
    const tenant = await testApp.createTenant('free');
    const { key, fileId, customer, entitlement, product } = await setup(tenant);
    const otherCustomer = await fixtures.customer(tenant.merchantId, 'live');
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ customer_id: customer.id }, 400, 'MISSING_REQUIRED_FIELD'],
      [{ entitlement_id: entitlement.id }, 400, 'MISSING_REQUIRED_FIELD'],
      [{ entitlement_id: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w', customer_id: customer.id }, 404, 'NOT_FOUND'],
      [{ entitlement_id: 'garbage', customer_id: customer.id }, 404, 'NOT_FOUND'],
      [{ entitlement_id: entitlement.id, customer_id: otherCustomer.id }, 404, 'NOT_FOUND'],
    ];
    for (const [query, status, code] of cases) {
      const response = await download(key, fileId, query).expect(status);
      expect(response.body.error.code).toBe(code);
    }
    // 2. not active (suspended), checked before the file.
    const suspended = await fixtures.entitlement(tenant.merchantId, 'live', customer.id, product.id, { status: 'suspended' });
    const notActive = await download(key, 'file_01jd8x3k2m4n5p6q7r8s9t0v1w', { entitlement_id: suspended.id, customer_id: customer.id }).expect(403);
    expect(notActive.body.error.code).toBe('ENTITLEMENT_NOT_ACTIVE');
    const timeExpired = await fixtures.entitlement(tenant.merchantId, 'live', customer.id, product.id, { expires_at: new Date(Date.now() - 1000) });
    expect((await download(key, fileId, { entitlement_id: timeExpired.id, customer_id: customer.id }).expect(403)).body.error.code).toBe(
      'ENTITLEMENT_NOT_ACTIVE',
    );
    // 3. a file outside the entitled product (another product's file, an unknown id, a malformed id).
    const elsewhere = await setup(tenant);
    for (const id of [elsewhere.fileId, 'file_01jd8x3k2m4n5p6q7r8s9t0v1w', 'x']) {
      const response = await download(key, id, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    // 4. linked but not confirmed → UPLOAD_NOT_CONFIRMED (400).
    const pending = await fixtures.uploadUrl(key, { file_name: 'later.pdf', file_size: 5, mime_type: PDF, product_id: product.id });
    const notConfirmed = await download(key, pending.fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(400);
    expect(notConfirmed.body.error).toMatchObject({ code: 'UPLOAD_NOT_CONFIRMED', type: 'invalid_request_error' });
    // Nothing above counted a use or bandwidth.
    expect((await usage(tenant.merchantId)).usage.live.bandwidth_bytes).toBe(0);
  });

  it('free plan: the download that reaches the monthly bandwidth exactly succeeds, the next is 402', async () => {
    const tenant = await testApp.createTenant('free');
    const { key, fileId, customer, entitlement, bytes } = await setup(tenant);
    await setBandwidth(tenant.merchantId, 'live', GIBIBYTE - 2 * bytes.length);
    await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(200);
    await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(200);
    expect((await usage(tenant.merchantId)).usage.live).toMatchObject({ bandwidth_bytes: GIBIBYTE, overage_bytes: 0 });
    const refused = await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(402);
    expect(refused.body.error).toMatchObject({ code: 'BANDWIDTH_LIMIT_REACHED', type: 'billing_error' });
    // The refused download left no trace: no record, no use, no count.
    const file = await testApp.http.get(`/v1/files/${fileId}`).set(bearer(key)).expect(200);
    expect(file.body.data.download_count).toBe(2);
    // Test mode is metered on its own: the live cap does not block it.
    const testSide = await setup(tenant, 'test');
    await download(testSide.key, testSide.fileId, { entitlement_id: testSide.entitlement.id, customer_id: testSide.customer.id }).expect(200);
  });

  it('free plan: 40 concurrent downloads never pass the monthly cap by a byte', async () => {
    const tenant = await testApp.createTenant('free');
    const { key, fileId, customer, product, bytes } = await setup(tenant);
    // Room for exactly 10 downloads; 40 entitlements so the downloads don't queue on one entitlement.
    await setBandwidth(tenant.merchantId, 'live', GIBIBYTE - 10 * bytes.length);
    const entitlements = await Promise.all(Array.from({ length: 40 }, () => fixtures.entitlement(tenant.merchantId, 'live', customer.id, product.id)));
    const responses = await Promise.all(entitlements.map((entitlement) => download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id })));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(10);
    expect(responses.filter((response) => response.status === 402)).toHaveLength(30);
    expect((await usage(tenant.merchantId)).usage.live).toMatchObject({ bandwidth_bytes: GIBIBYTE, overage_bytes: 0 });
    const file = await testApp.http.get(`/v1/files/${fileId}`).set(bearer(key)).expect(200);
    expect(file.body.data.download_count).toBe(10);
  });

  it('paid plan: bandwidth past the included amount is recorded as overage, not refused', async () => {
    const tenant = await testApp.createTenant('growth');
    const { key, fileId, customer, entitlement, bytes } = await setup(tenant);
    await setBandwidth(tenant.merchantId, 'live', 10 * GIBIBYTE - 3);
    await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(200);
    await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(200);
    const report = await usage(tenant.merchantId);
    expect(report).toMatchObject({
      plan: 'growth',
      month: billingMonth(new Date()),
      limits: { max_file_size_bytes: 200 * MEBIBYTE, storage_bytes: GIBIBYTE, bandwidth_bytes: 10 * GIBIBYTE, bandwidth_hard_cap: false },
    });
    expect(report.usage.live).toMatchObject({ bandwidth_bytes: 10 * GIBIBYTE - 3 + 2 * bytes.length, overage_bytes: 2 * bytes.length - 3 });
  });

  it('a usage-limited entitlement is exhausted by downloads: the last use succeeds, the next is ENTITLEMENT_NOT_ACTIVE', async () => {
    const tenant = await testApp.createTenant('free');
    const { key, fileId, customer, entitlement } = await setup(tenant, 'live', Buffer.from('twice'), 2);
    await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(200);
    await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(200);
    const refused = await download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(403);
    expect(refused.body.error.code).toBe('ENTITLEMENT_NOT_ACTIVE');
    const groups = await testApp.http.get(`/v1/customers/${customer.id}/downloads`).set(bearer(key)).expect(200);
    expect(groups.body.data).toEqual([]);
  });

  it('concurrent downloads of a usage-limited entitlement never pass its limit', async () => {
    const tenant = await testApp.createTenant('free');
    const { key, fileId, customer, entitlement } = await setup(tenant, 'live', Buffer.from('race'), 3);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => download(key, fileId, { entitlement_id: entitlement.id, customer_id: customer.id })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(3);
    expect(responses.filter((response) => response.status === 403)).toHaveLength(5);
    expect((await usage(tenant.merchantId)).usage.live.bandwidth_bytes).toBe(3 * 4);
  });

  it('storage quota: 10 parallel upload-url requests never reserve more than the plan', async () => {
    const tenant = await testApp.createTenant('free');
    const size = 15 * MEBIBYTE;
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        testApp.http
          .post('/v1/files/upload-url')
          .set(bearer(tenant.liveKey))
          .send({ file_name: `part-${index}.zip`, file_size: size, mime_type: 'application/zip' }),
      ),
    );
    const granted = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 402);
    expect(granted.length * size).toBeLessThanOrEqual(100 * MEBIBYTE);
    expect(granted).toHaveLength(6);
    expect(refused).toHaveLength(4);
    expect(refused[0].body.error).toMatchObject({ code: 'STORAGE_LIMIT_REACHED', type: 'billing_error' });
    expect((await usage(tenant.merchantId)).usage.live).toMatchObject({ storage_used_bytes: 0, storage_reserved_bytes: 6 * size });
  });

  it('reservations end when the upload URL expires; confirm moves reserved to used', async () => {
    const tenant = await testApp.createTenant('free');
    const first = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'a.pdf', file_size: 50 * MEBIBYTE, mime_type: PDF });
    await fixtures.uploadUrl(tenant.liveKey, { file_name: 'b.pdf', file_size: 50 * MEBIBYTE, mime_type: PDF });
    await testApp.http
      .post('/v1/files/upload-url')
      .set(bearer(tenant.liveKey))
      .send({ file_name: 'c.pdf', file_size: 1, mime_type: PDF })
      .expect(402);
    // Expire the reservations (billing's rows, as if an hour had passed) and the quota is free again.
    await testApp.app.get(DataSource).query(`UPDATE storage_reservations SET expires_at = now() - interval '1 second' WHERE merchant_id = $1`, [tenant.merchantId]);
    expect((await usage(tenant.merchantId)).usage.live.storage_reserved_bytes).toBe(0);
    const small = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'c.pdf', file_size: 10, mime_type: PDF });
    expect((await putObject(small.uploadUrl, Buffer.alloc(10), PDF)).status).toBe(200);
    expect((await usage(tenant.merchantId)).usage.live).toMatchObject({ storage_used_bytes: 0, storage_reserved_bytes: 10 });
    await testApp.http.post(`/v1/files/${small.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(200);
    expect((await usage(tenant.merchantId)).usage.live).toMatchObject({ storage_used_bytes: 10, storage_reserved_bytes: 0 });
    expect(first.fileId).toMatch(/^file_/);
    await testApp.http.get(`/v1/files/${first.fileId}`).set(bearer(tenant.liveKey)).expect(200);
  });

  it('customer downloads: one group per active FILE entitlement with confirmed files, paginated without total', async () => {
    const tenant = await testApp.createTenant('free');
    const first = await setup(tenant);
    const customer = first.customer;
    // A second product with two confirmed files and one pending file.
    const second = await fixtures.product(tenant.merchantId, 'live');
    const fileIds: string[] = [];
    for (const name of ['one.pdf', 'two.pdf']) {
      const upload = await fixtures.uploadUrl(first.key, { file_name: name, file_size: 3, mime_type: PDF, product_id: second.id });
      await putObject(upload.uploadUrl, Buffer.from('abc'), PDF);
      await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(first.key)).expect(200);
      fileIds.push(upload.fileId);
    }
    await fixtures.uploadUrl(first.key, { file_name: 'pending.pdf', file_size: 3, mime_type: PDF, product_id: second.id });
    const secondEntitlement = await fixtures.entitlement(tenant.merchantId, 'live', customer.id, second.id);
    // Not listed: revoked, time-expired, a product with only pending files, a URL product.
    await fixtures.entitlement(tenant.merchantId, 'live', customer.id, second.id, { status: 'revoked' });
    await fixtures.entitlement(tenant.merchantId, 'live', customer.id, second.id, { expires_at: new Date(Date.now() - 1) });
    const pendingOnly = await fixtures.product(tenant.merchantId, 'live');
    await fixtures.uploadUrl(first.key, { file_name: 'p.pdf', file_size: 3, mime_type: PDF, product_id: pendingOnly.id });
    await fixtures.entitlement(tenant.merchantId, 'live', customer.id, pendingOnly.id);

    const page1 = await testApp.http.get(`/v1/customers/${customer.id}/downloads?limit=1`).set(bearer(first.key)).expect(200);
    expect(page1.body.pagination).toEqual({ limit: 1, has_more: true, next_cursor: expect.any(String) });
    expect(page1.body.data).toEqual([
      {
        entitlement_id: secondEntitlement.id,
        product_id: second.id,
        product_name: second.name,
        files: [
          { file_id: fileIds[0], file_name: 'one.pdf', file_size: 3, mime_type: PDF },
          { file_id: fileIds[1], file_name: 'two.pdf', file_size: 3, mime_type: PDF },
        ],
      },
    ]);
    const page2 = await testApp.http
      .get(`/v1/customers/${customer.id}/downloads`)
      .query({ limit: 1, cursor: page1.body.pagination.next_cursor })
      .set(bearer(first.key))
      .expect(200);
    expect(page2.body.data.map((group: { entitlement_id: string }) => group.entitlement_id)).toEqual([first.entitlement.id]);
    expect(page2.body.pagination).toEqual({ limit: 1, has_more: false, next_cursor: null });

    for (const id of ['cus_01jd8x3k2m4n5p6q7r8s9t0v1w', 'bad']) {
      const missing = await testApp.http.get(`/v1/customers/${id}/downloads`).set(bearer(first.key)).expect(404);
      expect(missing.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    }
    // The other mode's customer is a 404 too.
    const otherMode = await testApp.http.get(`/v1/customers/${customer.id}/downloads`).set(bearer(tenant.testKey)).expect(404);
    expect(otherMode.body.error.code).toBe('CUSTOMER_NOT_FOUND');
  });

  it('tenant and mode isolation for files and downloads', async () => {
    const owner = await testApp.createTenant('free');
    const stranger = await testApp.createTenant('free');
    const { key, fileId, customer, entitlement } = await setup(owner, 'live');
    for (const otherKey of [owner.testKey, stranger.liveKey]) {
      expect((await testApp.http.get(`/v1/files/${fileId}`).set(bearer(otherKey)).expect(404)).body.error.code).toBe('FILE_NOT_FOUND');
      expect((await testApp.http.post(`/v1/files/${fileId}/confirm`).set(bearer(otherKey)).expect(404)).body.error.code).toBe('FILE_NOT_FOUND');
      const list = await testApp.http.get('/v1/files').set(bearer(otherKey)).expect(200);
      expect(list.body.data.map((file: { id: string }) => file.id)).not.toContain(fileId);
      const denied = await download(otherKey, fileId, { entitlement_id: entitlement.id, customer_id: customer.id }).expect(404);
      expect(denied.body.error.code).toBe('NOT_FOUND');
    }
    const list = await testApp.http.get('/v1/files?limit=1').set(bearer(key)).expect(200);
    expect(list.body.data.map((file: { id: string }) => file.id)).toEqual([fileId]);
    expect(list.body.pagination).toMatchObject({ total: 1, limit: 1, has_more: false, next_cursor: null });
  });

  it('scopes: files:write for uploads, files:read for downloads, customers:read for customer downloads', async () => {
    const tenant = await testApp.createTenant('free');
    const readOnly = await testApp.createKey(tenant.merchantId, 'live', ['files:read']);
    const writeOnly = await testApp.createKey(tenant.merchantId, 'live', ['files:write']);
    const upload = await testApp.http.post('/v1/files/upload-url').set(bearer(readOnly)).send({ file_name: 'a.pdf', file_size: 1, mime_type: PDF }).expect(403);
    expect(upload.body.error.code).toBe('INSUFFICIENT_SCOPE');
    await testApp.http.get('/v1/files').set(bearer(writeOnly)).expect(403);
    await testApp.http.get('/v1/customers/cus_01jd8x3k2m4n5p6q7r8s9t0v1w/downloads').set(bearer(readOnly)).expect(403);
    await testApp.http.get('/v1/files').expect(401);
  });

  it('admin usage: unknown merchant is 404; the route needs the admin token', async () => {
    const missing = await testApp.http.get('/admin/v1/merchants/mer_01jd8x3k2m4n5p6q7r8s9t0v1w/usage').set(bearer(TEST_ADMIN_TOKEN)).expect(404);
    expect(missing.body.error.code).toBe('MERCHANT_NOT_FOUND');
    await testApp.http.get('/admin/v1/merchants/mer_01jd8x3k2m4n5p6q7r8s9t0v1w/usage').expect(401);
  });
});
