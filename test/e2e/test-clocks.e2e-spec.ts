import { decodeJwt } from 'jose';
import { DataSource } from 'typeorm';
import { EntitlementExpirySweeper } from '../../src/entitlements/entitlement-expiry.sweeper';
import type { ProductEntity } from '../../src/products/product.entity';
import { countEvents, ENTITLEMENT_TEST_OVERRIDES, insertProduct } from '../support/entitlement-fixtures';
import { eventually } from '../support/eventually';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Test clocks (DESIGN §14): a merchant's test suite sees day 31 of a 30-day grant without waiting
 * 30 days. Clocks here are set far in the past, so a rule that took the real time instead of the
 * clock's would show at once (the grant would read as expired, the real-time sweeper would expire it).
 */
describe('test clocks', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let thirtyDays: ProductEntity;
  let linked: ProductEntity;

  const http = () => testApp.http;
  const key = () => bearer(tenant.testKey);
  const createClock = async (frozenTime: Date, name?: string) =>
    (await http().post('/v1/test-clocks').set(key()).send({ frozen_time: frozenTime.toISOString(), ...(name ? { name } : {}) }).expect(201)).body.data as {
      id: string;
      frozen_time: string;
      name: string | null;
      status: string;
    };
  const advance = (clockId: string, to: Date) => http().post(`/v1/test-clocks/${clockId}/advance`).set(key()).send({ frozen_time: to.toISOString() });
  const entitled = async (storeCustomerId: string, productId: string) =>
    (await http().get(`/v1/entitlements/check?store_customer_id=${storeCustomerId}&product_id=${productId}`).set(key()).expect(200)).body.data.entitled as boolean;
  const entitlement = async (id: string) => (await http().get(`/v1/entitlements/${id}`).set(key()).expect(200)).body.data;
  const expiredEvents = async (entitlementId: string) => {
    const rows: Array<{ data: { test_clock?: string } }> = await testApp.app
      .get(DataSource)
      .query(`SELECT data FROM events WHERE type = 'entitlement.expired' AND data->'object'->>'id' = $1`, [entitlementId]);
    return rows.map((row) => row.data);
  };

  beforeAll(async () => {
    // Listening, with local storage's upload URLs pointing at it, for the download case.
    const port = await freePort();
    testApp = await createTestApp({ ...ENTITLEMENT_TEST_OVERRIDES, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant();
    thirtyDays = await insertProduct(testApp, tenant.merchantId, 'test', { entitlement_type: 'time_limited', access_duration_days: 30 });
    linked = await insertProduct(testApp, tenant.merchantId, 'test', { entitlement_type: 'subscription_linked' });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('creates, lists, gets and deletes clocks, in test mode only', async () => {
    const frozen = new Date('2025-03-01T12:00:00.000Z');
    const clock = await createClock(frozen, 'suite one');
    expect(clock).toMatchObject({ object: 'test_clock', frozen_time: frozen.toISOString(), name: 'suite one', status: 'ready' });
    expect(clock.id).toMatch(/^clock_/);
    expect((await http().get(`/v1/test-clocks/${clock.id}`).set(key()).expect(200)).body.data).toEqual(clock);
    const listed = await http().get('/v1/test-clocks?limit=100').set(key()).expect(200);
    expect(listed.body.data.map((item: { id: string }) => item.id)).toContain(clock.id);
    expect(listed.body.pagination).toMatchObject({ has_more: false });

    const live = bearer(tenant.liveKey);
    for (const request of [
      http().post('/v1/test-clocks').set(live).send({ frozen_time: frozen.toISOString() }),
      http().get('/v1/test-clocks').set(live),
      http().get(`/v1/test-clocks/${clock.id}`).set(live),
      http().post(`/v1/test-clocks/${clock.id}/advance`).set(live).send({ frozen_time: new Date(frozen.getTime() + DAY).toISOString() }),
      http().delete(`/v1/test-clocks/${clock.id}`).set(live),
    ]) {
      const response = await request;
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 400, code: 'TEST_MODE_ONLY' });
      // It names the test keys' real prefix (it once said sk_test_).
      expect(response.body.error.message).toContain(`(${tenant.testKey.slice(0, 'eh_test_'.length)}…)`);
    }
    // A live grant can't name a clock: live mode has none.
    const liveGrant = await http().post('/v1/entitlements').set(live).send({ store_customer_id: 'live_cust', store_product_id: 'nothing', test_clock: clock.id });
    expect(liveGrant.status).toBe(404);

    expect((await http().delete(`/v1/test-clocks/${clock.id}`).set(key()).expect(200)).body.data).toEqual({ id: clock.id, deleted: true });
    const gone = await http().get(`/v1/test-clocks/${clock.id}`).set(key()).expect(404);
    expect(gone.body.error.code).toBe('TEST_CLOCK_NOT_FOUND');
    expect((await http().get('/v1/test-clocks/clock_nonsense').set(key()).expect(404)).body.error.code).toBe('TEST_CLOCK_NOT_FOUND');
    const unknownOnGrant = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_unknown_clock', product_id: thirtyDays.id, test_clock: clock.id }).expect(404);
    expect(unknownOnGrant.body.error.code).toBe('TEST_CLOCK_NOT_FOUND');
  });

  it('binds a customer when it is created; naming a clock for a customer not bound to it is 409 TEST_CLOCK_MISMATCH', async () => {
    const first = await createClock(new Date('2025-01-01T00:00:00Z'));
    const second = await createClock(new Date('2025-01-01T00:00:00Z'));
    const bound = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_bound', product_id: thirtyDays.id, test_clock: first.id }).expect(201);
    expect(bound.body.data.test_clock).toBe(first.id);
    const customer = (await http().get('/v1/customers/store/c_bound').set(key()).expect(200)).body.data;
    expect(customer.test_clock).toBe(first.id);
    // Naming no clock for a bound customer is fine: it stays bound.
    const again = await http().post('/v1/entitlements').set(key()).send({ customer_id: customer.id, product_id: linked.id }).expect(201);
    expect(again.body.data).toMatchObject({ test_clock: first.id, granted_at: '2025-01-01T00:00:00.000Z' });

    const otherClock = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_bound', product_id: thirtyDays.id, test_clock: second.id }).expect(409);
    expect(otherClock.body.error.code).toBe('TEST_CLOCK_MISMATCH');
    await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_unbound', product_id: linked.id }).expect(201);
    expect((await http().get('/v1/customers/store/c_unbound').set(key()).expect(200)).body.data.test_clock).toBeNull();
    for (const request of [
      http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_unbound', product_id: thirtyDays.id, test_clock: first.id }),
      http().post('/v1/orders').set(key()).send({ store_order_id: 'o_mismatch', store_customer_id: 'c_unbound', test_clock: first.id, line_items: [{ store_line_item_id: 'l1', product_id: thirtyDays.id }] }),
      http().put('/v1/subscriptions/store/s_mismatch').set(key()).send({ store_customer_id: 'c_unbound', product_id: linked.id, status: 'active', test_clock: first.id }),
    ]) {
      const response = await request;
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 409, code: 'TEST_CLOCK_MISMATCH' });
    }
  });

  it("a 30-day grant is active at the clock's time, untouched by the real-time sweeper, and expires once when the clock passes day 30", async () => {
    // Far in the past: by the real time this grant ran out long ago.
    const start = new Date('2024-06-01T00:00:00.000Z');
    const clock = await createClock(start);
    const granted = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_thirty', product_id: thirtyDays.id, test_clock: clock.id }).expect(201);
    const id: string = granted.body.data.id;
    expect(granted.body.data).toMatchObject({ status: 'active', granted_at: start.toISOString(), expires_at: new Date(start.getTime() + 30 * DAY).toISOString(), test_clock: clock.id });
    expect(await entitled('c_thirty', thirtyDays.id)).toBe(true);

    // The real-time sweep leaves a clock's customers alone.
    await testApp.app.get(EntitlementExpirySweeper).sweep();
    expect((await entitlement(id)).status).toBe('active');
    expect(await expiredEvents(id)).toEqual([]);

    const day29 = await advance(clock.id, new Date(start.getTime() + 29 * DAY)).expect(200);
    expect(day29.body.data).toMatchObject({ id: clock.id, status: 'ready', frozen_time: new Date(start.getTime() + 29 * DAY).toISOString() });
    expect(await entitled('c_thirty', thirtyDays.id)).toBe(true);
    expect(await expiredEvents(id)).toEqual([]);

    await advance(clock.id, new Date(start.getTime() + 31 * DAY)).expect(200);
    expect(await entitled('c_thirty', thirtyDays.id)).toBe(false);
    expect((await entitlement(id)).status).toBe('expired');
    const events = await expiredEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0].test_clock).toBe(clock.id);
    const listed = await http().get(`/v1/events?type=entitlement.expired&limit=100`).set(key()).expect(200);
    const listedEvent = listed.body.data.find((event: { data: { object: { id: string } } }) => event.data.object.id === id);
    expect(listedEvent.data.test_clock).toBe(clock.id);
    // Events keep the real time.
    expect(Math.abs(new Date(listedEvent.created_at).getTime() - Date.now())).toBeLessThan(DAY);

    // Advancing again publishes nothing new.
    await advance(clock.id, new Date(start.getTime() + 40 * DAY)).expect(200);
    await testApp.app.get(EntitlementExpirySweeper).sweep();
    expect(await countEvents(testApp, 'entitlement.expired', id)).toBe(1);
  });

  it("issues download URLs at the clock's time: a grant the real time sees as lapsed downloads until the clock passes day 30", async () => {
    const fixtures = new FileFixtures(testApp);
    const product = await fixtures.product(tenant.merchantId, 'test');
    await testApp.app.get(DataSource).query(`UPDATE products SET entitlement_type = 'time_limited', access_duration_days = 30 WHERE id = $1`, [product.id]);
    const bytes = Buffer.from('%PDF clocked');
    const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'clocked.pdf', file_size: bytes.length, mime_type: 'application/pdf', product_id: product.id });
    expect((await putObject(upload.uploadUrl, bytes, 'application/pdf')).status).toBe(200);
    await http().post(`/v1/files/${upload.fileId}/confirm`).set(key()).expect(200);
    const start = new Date('2024-06-01T00:00:00.000Z');
    const clock = await createClock(start);
    const granted = (await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_download', product_id: product.id, test_clock: clock.id }).expect(201)).body.data;
    const download = () => http().get(`/v1/files/${upload.fileId}/download`).query({ entitlement_id: granted.id, customer_id: granted.customer_id }).set(key());
    // By the real time this grant lapsed in 2024; by the clock's it has 30 days to run.
    const issued = await download().expect(200);
    expect(issued.body.data.download.entitlement_id).toBe(granted.id);
    expect((await entitlement(granted.id)).usage_count).toBe(1);
    await advance(clock.id, new Date(start.getTime() + 31 * DAY)).expect(200);
    const refused = await download().expect(403);
    expect(refused.body.error.code).toBe('ENTITLEMENT_NOT_ACTIVE');
  });

  it('a subscription with cancel_at_period_end ends when the clock passes the period end', async () => {
    const start = new Date('2024-02-01T00:00:00.000Z');
    const clock = await createClock(start);
    const periodEnd = new Date(start.getTime() + 10 * DAY);
    const put = await http()
      .put('/v1/subscriptions/store/s_clock_period')
      .set(key())
      .send({ store_customer_id: 'c_period', product_id: linked.id, status: 'active', current_period_end: periodEnd.toISOString(), cancel_at_period_end: true, test_clock: clock.id })
      .expect(201);
    const { id: subscriptionId, entitlement_id: entitlementId } = put.body.data as { id: string; entitlement_id: string };
    expect(put.body.data.entitlement_status).toBe('active');
    expect(put.body.data.test_clock).toBe(clock.id);
    expect(await entitlement(entitlementId)).toMatchObject({ expires_at: periodEnd.toISOString(), granted_at: start.toISOString() });

    await advance(clock.id, new Date(periodEnd.getTime() + DAY)).expect(200);
    expect((await http().get(`/v1/subscriptions/${subscriptionId}`).set(key()).expect(200)).body.data.entitlement_status).toBe('expired');
    expect(await entitled('c_period', linked.id)).toBe(false);
    expect(await countEvents(testApp, 'entitlement.expired', entitlementId)).toBe(1);
  });

  it("signs tokens at the clock's time, and orders grant at it", async () => {
    const start = new Date('2024-09-01T08:00:00.000Z');
    const clock = await createClock(start);
    const order = await http()
      .post('/v1/orders')
      .set(key())
      .send({ store_order_id: 'o_clock', store_customer_id: 'c_token', test_clock: clock.id, line_items: [{ store_line_item_id: 'l1', product_id: thirtyDays.id }] })
      .expect(201);
    const entitlementId: string = order.body.data.line_items[0].entitlement_id;
    expect(await entitlement(entitlementId)).toMatchObject({ granted_at: start.toISOString(), test_clock: clock.id });
    expect(order.body.data.test_clock).toBe(clock.id);
    const orderEvents: Array<{ data: { test_clock?: string } }> = await testApp.app
      .get(DataSource)
      .query(`SELECT data FROM events WHERE type = 'order.created' AND data->'object'->>'id' = $1`, [order.body.data.id]);
    expect(orderEvents.map((event) => event.data.test_clock)).toEqual([clock.id]);
    const token = (await http().post(`/v1/entitlements/${entitlementId}/token`).set(key()).expect(200)).body.data.token as string;
    const claims = decodeJwt(token);
    expect(claims.iat).toBe(start.getTime() / 1000);
    // exp: the earlier of expires_at (day 30) and iat + the token lifetime (1 hour by default).
    expect(claims.exp).toBe(start.getTime() / 1000 + 3600);
  });

  it('a token of a customer on a clock in the future is dated at real time and lasts no longer than the TTL from real now', async () => {
    const future = new Date(Date.now() + 400 * DAY);
    const clock = await createClock(future, 'future suite');
    const granted = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_future_token', product_id: thirtyDays.id, test_clock: clock.id }).expect(201);
    expect(granted.body.data.granted_at).toBe(future.toISOString());
    const before = Math.floor(Date.now() / 1000);
    const issued = (await http().post(`/v1/entitlements/${granted.body.data.id}/token`).set(key()).expect(200)).body.data as { token: string; expires_at: string };
    const after = Math.ceil(Date.now() / 1000);
    const claims = decodeJwt(issued.token);
    // Dated at the customer's clock, it would verify in real time for the 400 days to the clock and beyond.
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.iat).toBeLessThanOrEqual(after);
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(claims.exp).toBeLessThanOrEqual(after + 3600);
    expect(Date.parse(issued.expires_at) / 1000).toBe(claims.exp);
    // The check's token follows the same rule.
    const checked = await http().get(`/v1/entitlements/check?store_customer_id=c_future_token&product_id=${thirtyDays.id}&include_token=true`).set(key()).expect(200);
    expect(decodeJwt(checked.body.data.token as string).exp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
  });

  it("imports bind the customers their rows create to the import's own clock", async () => {
    const start = new Date('2024-11-01T00:00:00.000Z');
    const clock = await createClock(start);
    await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_import_unbound', product_id: linked.id }).expect(201);
    const finished = async (importId: string) => {
      let report: { status: string; granted: number; failed: number; test_clock: string | null; errors: Array<{ row: number; code: string }> } | null = null;
      await eventually(async () => {
        report = (await http().get(`/v1/entitlement-imports/${importId}`).set(key()).expect(200)).body.data;
        return report?.status === 'completed';
      }, 30_000);
      return report as unknown as { granted: number; failed: number; test_clock: string | null; errors: Array<{ row: number; code: string }> };
    };

    const json = await http()
      .post('/v1/entitlement-imports')
      .set(key())
      .send({ test_clock: clock.id, rows: [{ store_customer_id: 'c_import_json', product_id: thirtyDays.id }, { store_customer_id: 'c_import_unbound', product_id: thirtyDays.id }] })
      .expect(202);
    expect(json.body.data.test_clock).toBe(clock.id);
    const jsonReport = await finished(json.body.data.id);
    expect(jsonReport).toMatchObject({ granted: 1, failed: 1, test_clock: clock.id });
    expect(jsonReport.errors).toEqual([expect.objectContaining({ row: 2, code: 'TEST_CLOCK_MISMATCH' })]);
    const imported = (await http().get('/v1/entitlements?store_customer_id=c_import_json').set(key()).expect(200)).body.data[0];
    expect(imported).toMatchObject({ test_clock: clock.id, granted_at: start.toISOString(), source: 'import' });

    const unknown = await http().post('/v1/entitlement-imports').set(key()).send({ test_clock: 'clock_nonsense', rows: [{ store_customer_id: 'x', product_id: thirtyDays.id }] }).expect(404);
    expect(unknown.body.error.code).toBe('TEST_CLOCK_NOT_FOUND');
  });

  it('advances forward only, at most 2 years per call', async () => {
    const start = new Date('2025-05-05T00:00:00.000Z');
    const clock = await createClock(start);
    for (const to of [start, new Date(start.getTime() - 1000), new Date('2027-05-05T00:00:00.001Z')]) {
      const response = await advance(clock.id, to);
      expect({ to: to.toISOString(), status: response.status, code: response.body.error?.code }).toEqual({ to: to.toISOString(), status: 400, code: 'INVALID_PARAMETER' });
    }
    await advance(clock.id, new Date('2027-05-05T00:00:00.000Z')).expect(200);
    expect((await advance('clock_nonsense', new Date('2030-01-01T00:00:00Z')).expect(404)).body.error.code).toBe('TEST_CLOCK_NOT_FOUND');
  });

  it('deleting a clock deletes its customers and their entitlements, orders and subscriptions', async () => {
    const clock = await createClock(new Date('2025-07-01T00:00:00.000Z'));
    const granted = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_delete', product_id: thirtyDays.id, test_clock: clock.id }).expect(201);
    const order = await http()
      .post('/v1/orders')
      .set(key())
      .send({ store_order_id: 'o_delete', store_customer_id: 'c_delete', line_items: [{ store_line_item_id: 'l1', product_id: thirtyDays.id }] })
      .expect(201);
    const subscription = await http().put('/v1/subscriptions/store/s_delete').set(key()).send({ store_customer_id: 'c_delete', product_id: linked.id, status: 'active' }).expect(201);
    const customerId: string = granted.body.data.customer_id;
    // A customer of no clock is left alone.
    const unbound = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_keep', product_id: thirtyDays.id }).expect(201);

    await http().delete(`/v1/test-clocks/${clock.id}`).set(key()).expect(200);
    await http().get(`/v1/customers/${customerId}`).set(key()).expect(404);
    await http().get(`/v1/entitlements/${granted.body.data.id}`).set(key()).expect(404);
    await http().get(`/v1/orders/${order.body.data.id}`).set(key()).expect(404);
    await http().get(`/v1/subscriptions/${subscription.body.data.id}`).set(key()).expect(404);
    await http().get(`/v1/entitlements/${unbound.body.data.id}`).set(key()).expect(200);
    // The store id is free again: a new customer, bound to nothing.
    const reborn = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'c_delete', product_id: thirtyDays.id }).expect(201);
    expect(reborn.body.data).toMatchObject({ test_clock: null });
    expect(reborn.body.data.customer_id).not.toBe(customerId);
  });
});
