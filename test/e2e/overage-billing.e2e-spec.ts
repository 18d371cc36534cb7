import { DataSource } from 'typeorm';
import { UsageRepository } from '../../src/billing/usage.repository';
import { UsageStatementsService } from '../../src/billing/usage-statements.service';
import type { ApiMode } from '../../src/database/tenant';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { controlClock, ControlledClock } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const GIB = 2 ** 30;
const admin = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** Adds bytes to a month's bandwidth meter through the billing module's own repository, as downloads do. */
async function seedBandwidth(testApp: TestApp, merchantId: string, mode: ApiMode, month: string, bytes: number, includedBytes: number): Promise<void> {
  const usage = testApp.app.get(UsageRepository);
  await testApp.app.get(UnitOfWork).run((tx) => usage.chargeBandwidth(tx, { merchantId, mode }, { month, bytes, includedBytes, hardCapBytes: null }));
}

async function statementEvents(testApp: TestApp, merchantId: string, month: string): Promise<Array<{ mode: string; object: Record<string, unknown> }>> {
  const rows: Array<{ mode: string; data: { object: Record<string, unknown> } }> = await testApp.app
    .get(DataSource)
    .query(`SELECT mode, data FROM events WHERE type = 'statement.created' AND merchant_id = $1 AND data->'object'->>'month' = $2 ORDER BY mode`, [merchantId, month]);
  return rows.map((row) => ({ mode: row.mode, object: row.data.object }));
}

describe('overage billing: terms and GET /v1/usage (DESIGN §17)', () => {
  let testApp: TestApp;
  let clock: ControlledClock;

  beforeAll(async () => {
    testApp = await createTestApp();
    clock = controlClock(testApp, new Date('2031-03-15T12:00:00.000Z'));
  });
  afterAll(async () => {
    clock.release();
    await testApp.close();
  });

  it("sets a merchant's own limits and price through the admin API; null restores the plan's", async () => {
    const tenant = await testApp.createTenant('enterprise');
    const patched = await testApp.http
      .patch(`/admin/v1/merchants/${tenant.merchantId}`)
      .set(admin)
      .send({ limits: { bandwidth_bytes: 5 * GIB, storage_bytes: 2 * GIB }, overage_price_per_gib: 3, stripe_customer_id: 'cus_Test123' })
      .expect(200);
    expect(patched.body.data).toMatchObject({
      plan: 'enterprise',
      limits: { max_file_size_bytes: null, storage_bytes: 2 * GIB, bandwidth_bytes: 5 * GIB },
      overage_price_per_gib: 3,
      stripe_customer_id: 'cus_Test123',
    });
    const usage = await testApp.http.get('/v1/usage').set(bearer(tenant.liveKey)).expect(200);
    expect(usage.body.data).toMatchObject({
      month: '2031-03',
      mode: 'live',
      plan: 'enterprise',
      limits: { max_file_size_bytes: 5 * GIB, storage_bytes: 2 * GIB, bandwidth_bytes: 5 * GIB, bandwidth_hard_cap: false },
      overage: { price_per_gib: 3, currency: 'usd', amount_to_date: 0 },
    });

    // Absent stays; null restores the plan's (enterprise: 1 TiB, 100 GiB storage, OVERAGE_PRICES' 5).
    const restored = await testApp.http
      .patch(`/admin/v1/merchants/${tenant.merchantId}`)
      .set(admin)
      .send({ limits: { bandwidth_bytes: null }, overage_price_per_gib: null })
      .expect(200);
    expect(restored.body.data).toMatchObject({ limits: { storage_bytes: 2 * GIB, bandwidth_bytes: null }, overage_price_per_gib: null, stripe_customer_id: 'cus_Test123' });
    const after = await testApp.http.get('/v1/usage').set(bearer(tenant.liveKey)).expect(200);
    expect(after.body.data.limits).toMatchObject({ bandwidth_bytes: 2 ** 40, storage_bytes: 2 * GIB });
    expect(after.body.data.overage.price_per_gib).toBe(5);
  });

  it.each([
    [{ limits: { bandwidth_bytes: 0 } }, 'bandwidth_bytes'],
    [{ limits: { storage_bytes: 1.5 } }, 'storage_bytes'],
    [{ overage_price_per_gib: -1 }, 'overage_price_per_gib'],
    [{ stripe_customer_id: 'acct_123' }, 'stripe_customer_id'],
    [{ limits: null }, 'limits'],
  ])('refuses bad terms %j (400 naming %s)', async (body, field) => {
    const tenant = await testApp.createTenant('growth');
    const response = await testApp.http.patch(`/admin/v1/merchants/${tenant.merchantId}`).set(admin).send(body).expect(400);
    expect(JSON.stringify(response.body.error)).toContain(field);
  });

  it('shows a paid merchant past its included bandwidth the charge to date, per mode, and only with usage:read', async () => {
    const tenant = await testApp.createTenant('growth');
    // growth: 10 GiB included at 10 (minor units) per GiB; 3.25 GiB over costs 32.5 → 33 (half up).
    await seedBandwidth(testApp, tenant.merchantId, 'live', '2031-03', 13.25 * GIB, 10 * GIB);
    await seedBandwidth(testApp, tenant.merchantId, 'test', '2031-03', GIB, 10 * GIB);
    const live = await testApp.http.get('/v1/usage').set(bearer(tenant.liveKey)).expect(200);
    expect(live.body.data).toMatchObject({
      month: '2031-03',
      mode: 'live',
      plan: 'growth',
      bandwidth_bytes: 13.25 * GIB,
      overage_bytes: 3.25 * GIB,
      overage: { price_per_gib: 10, currency: 'usd', amount_to_date: 33 },
    });
    const test = await testApp.http.get('/v1/usage').set(bearer(tenant.testKey)).expect(200);
    expect(test.body.data).toMatchObject({ mode: 'test', bandwidth_bytes: GIB, overage_bytes: 0, overage: { amount_to_date: 0 } });

    const withoutScope = await testApp.createKey(tenant.merchantId, 'live', ['files:read', 'events:read']);
    const refused = await testApp.http.get('/v1/usage').set(bearer(withoutScope)).expect(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    await testApp.http.get('/v1/usage/statements').set(bearer(withoutScope)).expect(403);
    const usageOnly = await testApp.createKey(tenant.merchantId, 'live', ['usage:read']);
    await testApp.http.get('/v1/usage').set(bearer(usageOnly)).expect(200);
    await testApp.http.get('/v1/files').set(bearer(usageOnly)).expect(403);
  });

  it('shows the free plan its hard cap: no price, no overage', async () => {
    const tenant = await testApp.createTenant('free');
    const usage = await testApp.http.get('/v1/usage').set(bearer(tenant.liveKey)).expect(200);
    expect(usage.body.data).toMatchObject({ plan: 'free', limits: { bandwidth_bytes: GIB, bandwidth_hard_cap: true }, overage: { price_per_gib: null, amount_to_date: 0 } });
  });
});

describe.each([
  ['PostgreSQL (or the embedded database without TEST_DATABASE_URL)', {}],
  ['the embedded database', { DATABASE_URL: '' }],
])('usage statements on %s (DESIGN §17)', (_name, overrides: Record<string, string>) => {
  let testApp: TestApp;
  let clock: ControlledClock;
  let growth: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp(overrides);
    clock = controlClock(testApp, new Date('2031-03-15T12:00:00.000Z'));
    growth = await testApp.createTenant('growth');
    await testApp.http.patch(`/admin/v1/merchants/${growth.merchantId}`).set(admin).send({ overage_price_per_gib: 8 }).expect(200);
    await seedBandwidth(testApp, growth.merchantId, 'live', '2031-02', 13.25 * GIB, 10 * GIB);
    await seedBandwidth(testApp, growth.merchantId, 'test', '2031-02', GIB, 10 * GIB);
  });
  afterAll(async () => {
    clock.release();
    await testApp.close();
  });

  it('refuses to close the current month, a future one or a malformed one (400)', async () => {
    for (const month of ['2031-03', '2031-04', '2031-13', 'March']) {
      const response = await testApp.http.post('/admin/v1/statements/close').set(admin).send({ month }).expect(400);
      expect(response.body.error.code).toBe('INVALID_PARAMETER');
    }
  });

  it('closes an ended month once: one correct statement per mode, one statement.created each, however often it runs', async () => {
    const first = await testApp.http.post('/admin/v1/statements/close').set(admin).send({ month: '2031-02' }).expect(200);
    expect(first.body.data.created).toBeGreaterThanOrEqual(2);
    const again = await testApp.http.post('/admin/v1/statements/close').set(admin).send({ month: '2031-02' }).expect(200);
    expect(again.body.data).toEqual({ month: '2031-02', created: 0 });

    const list = await testApp.http.get('/v1/usage/statements').set(bearer(growth.liveKey)).expect(200);
    expect(list.body.data).toHaveLength(1);
    const statement = list.body.data[0];
    // 3.25 GiB over at the merchant's own 8 per GiB: 26, exactly.
    expect(statement).toMatchObject({
      object: 'usage_statement',
      month: '2031-02',
      mode: 'live',
      plan: 'growth',
      included_bandwidth_bytes: 10 * GIB,
      bandwidth_bytes: 13.25 * GIB,
      overage_bytes: 3.25 * GIB,
      price_per_gib: 8,
      currency: 'usd',
      amount: 26,
      created_at: '2031-03-15T12:00:00.000Z',
      reported_at: null,
    });
    expect(statement.id).toMatch(/^stmt_/);
    const fetched = await testApp.http.get(`/v1/usage/statements/${statement.id}`).set(bearer(growth.liveKey)).expect(200);
    expect(fetched.body.data).toEqual(statement);
    const testMode = await testApp.http.get('/v1/usage/statements').set(bearer(growth.testKey)).expect(200);
    expect(testMode.body.data.map((item: { mode: string; amount: number }) => [item.mode, item.amount])).toEqual([['test', 0]]);

    const events = await statementEvents(testApp, growth.merchantId, '2031-02');
    expect(events.map((event) => event.mode)).toEqual(['live', 'test']);
    expect(events[0].object).toEqual(statement);
  });

  it('answers 404 STATEMENT_NOT_FOUND for an unknown, malformed or other-mode statement id', async () => {
    const live = (await testApp.http.get('/v1/usage/statements').set(bearer(growth.liveKey)).expect(200)).body.data[0];
    for (const [key, id] of [
      [growth.testKey, live.id],
      [growth.liveKey, 'stmt_01jd8x3k2m4n5p6q7r8s9t0v1w'],
      [growth.liveKey, 'not-an-id'],
    ]) {
      const response = await testApp.http.get(`/v1/usage/statements/${id}`).set(bearer(key)).expect(404);
      expect(response.body.error.code).toBe('STATEMENT_NOT_FOUND');
    }
    const other = await testApp.createTenant('growth');
    await testApp.http.get(`/v1/usage/statements/${live.id}`).set(bearer(other.liveKey)).expect(404);
  });

  it('writes one statement and one event when two closes run at once', async () => {
    clock.set(new Date('2031-06-10T00:00:00.000Z'));
    const tenant = await testApp.createTenant('pro');
    await seedBandwidth(testApp, tenant.merchantId, 'live', '2031-05', 101 * GIB, 100 * GIB);
    const statements = testApp.app.get(UsageStatementsService);
    const results = await Promise.all([statements.closeMonth('2031-05'), statements.closeMonth('2031-05'), statements.closeMonth('2031-05')]);
    const counts = await testApp.app
      .get(DataSource)
      .query(`SELECT mode, count(*)::int AS count, sum(amount)::int AS amount FROM usage_statements WHERE merchant_id = $1 AND month = '2031-05' GROUP BY mode ORDER BY mode`, [
        tenant.merchantId,
      ]);
    expect(counts).toEqual([
      { mode: 'live', count: 1, amount: 8 },
      { mode: 'test', count: 1, amount: 0 },
    ]);
    expect((await statementEvents(testApp, tenant.merchantId, '2031-05')).map((event) => event.mode)).toEqual(['live', 'test']);
    // Every statement was written by exactly one of the three closes.
    const total = await testApp.app.get(DataSource).query(`SELECT count(*)::int AS count FROM usage_statements WHERE month = '2031-05'`);
    expect(results.reduce((sum, result) => sum + result.created, 0)).toBe(total[0].count);
  });

  it("lists a month's live statements for the operator as JSON and as CSV", async () => {
    const json = await testApp.http.get('/admin/v1/statements').query({ month: '2031-02' }).set(admin).expect(200);
    const mine = json.body.data.filter((row: { merchant_id: string }) => row.merchant_id === growth.merchantId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ mode: 'live', amount: 26, overage_bytes: 3.25 * GIB });
    expect(json.body.data.every((row: { mode: string }) => row.mode === 'live')).toBe(true);

    const csv = await testApp.http.get('/admin/v1/statements').query({ month: '2031-02' }).set(admin).set('Accept', 'text/csv').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,merchant_id,month,mode,plan,included_bandwidth_bytes,bandwidth_bytes,overage_bytes,price_per_gib,currency,amount,created_at,reported_at,report_error');
    expect(lines).toHaveLength(json.body.data.length + 1);
    expect(lines).toContain(`${mine[0].id},${growth.merchantId},2031-02,live,growth,${10 * GIB},${13.25 * GIB},${3.25 * GIB},8,usd,26,2031-03-15T12:00:00.000Z,,`);

    await testApp.http.get('/admin/v1/statements').query({ month: '2031-2' }).set(admin).expect(400);
    await testApp.http.get('/admin/v1/statements').query({ month: '2031-02' }).set(bearer(growth.liveKey)).expect(401);
  });
});
