import { DataSource } from 'typeorm';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const PDF = 'application/pdf';
const FILE_BYTES = 40;
const admin = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * usage.bandwidth_threshold (DESIGN §17): published once per merchant, mode, month and threshold
 * (80 and 100 % of the included bandwidth), by the download that reaches it, however many race.
 * A merchant's own small included bandwidth (admin PATCH) lets 40-byte files cross it.
 */
describe('bandwidth threshold events', () => {
  let testApp: TestApp;
  let fixtures: FileFixtures;

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    fixtures = new FileFixtures(testApp);
  });
  afterAll(() => testApp.close());

  async function downloadable(tenant: TestTenant, includedBytes: number) {
    await testApp.http.patch(`/admin/v1/merchants/${tenant.merchantId}`).set(admin).send({ limits: { bandwidth_bytes: includedBytes } }).expect(200);
    const key = tenant.liveKey;
    const product = await fixtures.product(tenant.merchantId, 'live');
    const bytes = Buffer.alloc(FILE_BYTES, 'x');
    const upload = await fixtures.uploadUrl(key, { file_name: 'book.pdf', file_size: bytes.length, mime_type: PDF, product_id: product.id });
    expect((await putObject(upload.uploadUrl, bytes, PDF)).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(key)).expect(200);
    const customer = await fixtures.customer(tenant.merchantId, 'live');
    const entitlement = await fixtures.entitlement(tenant.merchantId, 'live', customer.id, product.id);
    return (extra: Record<string, string> = {}) =>
      testApp.http
        .get(`/v1/files/${upload.fileId}/download`)
        .query({ customer_id: customer.id, entitlement_id: entitlement.id })
        .set({ ...bearer(key), ...extra });
  }

  async function thresholdEvents(merchantId: string): Promise<Array<Record<string, unknown>>> {
    const rows: Array<{ data: { object: Record<string, unknown> } }> = await testApp.app
      .get(DataSource)
      .query(`SELECT data FROM events WHERE type = 'usage.bandwidth_threshold' AND merchant_id = $1 AND mode = 'live' ORDER BY (data->'object'->>'threshold')::int`, [merchantId]);
    return rows.map((row) => row.data.object);
  }

  it('publishes 80 and 100 % once each when 50 concurrent downloads cross both', async () => {
    const tenant = await testApp.createTenant('growth');
    // 1,000 bytes included: 50 × 40 = 2,000 bytes cross 800 and 1,000 somewhere in the race.
    const download = await downloadable(tenant, 1_000);
    const responses = await Promise.all(Array.from({ length: 50 }, () => download()));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    const month = new Date().toISOString().slice(0, 7);
    const events = await thresholdEvents(tenant.merchantId);
    expect(events.map((event) => event.threshold)).toEqual([80, 100]);
    for (const event of events) {
      expect(event).toMatchObject({ month, included_bandwidth_bytes: 1_000 });
      // The download that reached it saw at least the threshold, and less than it plus the downloads in flight.
      expect(Number(event.bandwidth_bytes)).toBeGreaterThanOrEqual((Number(event.threshold) / 100) * 1_000);
    }
    const usage = await testApp.http.get('/v1/usage').set(bearer(tenant.liveKey)).expect(200);
    expect(usage.body.data).toMatchObject({ bandwidth_bytes: 2_000, overage_bytes: 1_000 });

    // More downloads in the month publish nothing more; the test mode has its own meter and events.
    await download().expect(200);
    expect(await thresholdEvents(tenant.merchantId)).toHaveLength(2);
  });

  it('publishes 100 % on the free plan when the cap first refuses a download, once', async () => {
    const tenant = await testApp.createTenant('free');
    // 100 bytes included: two downloads (80 bytes) reach 80 %, the third is refused by the cap.
    const download = await downloadable(tenant, 100);
    await download().expect(200);
    expect(await thresholdEvents(tenant.merchantId)).toEqual([]);
    await download().expect(200);
    expect((await thresholdEvents(tenant.merchantId)).map((event) => event.threshold)).toEqual([80]);
    const refusals = await Promise.all(Array.from({ length: 10 }, () => download()));
    expect(refusals.map((response) => response.body.error?.code)).toEqual(Array(10).fill('BANDWIDTH_LIMIT_REACHED'));
    // The locked path (an Idempotency-Key takes it) is refused the same way.
    const locked = await download({ 'Idempotency-Key': `cap-${tenant.merchantId}` });
    expect(locked.body.error?.code).toBe('BANDWIDTH_LIMIT_REACHED');
    const events = await thresholdEvents(tenant.merchantId);
    expect(events.map((event) => event.threshold)).toEqual([80, 100]);
    expect(events[1]).toMatchObject({ bandwidth_bytes: 80, included_bandwidth_bytes: 100 });
  });
});
