import { EntitlementExpirySweeper } from '../../src/entitlements/entitlement-expiry.sweeper';
import type { ProductEntity } from '../../src/products/product.entity';
import { countEvents, entitlementSuite, insertProduct } from '../support/entitlement-fixtures';
import { bearer } from '../support/test-app';
import { DataSource } from 'typeorm';

const DAY = 24 * 60 * 60 * 1000;

describe('subscriptions: one subscription_linked entitlement kept in step with the store', () => {
  const suite = entitlementSuite('test');
  let linked: ProductEntity;

  const http = () => suite.testApp.http;
  const key = () => bearer(suite.tenant.testKey);
  const put = (storeId: string, body: Record<string, unknown>) => http().put(`/v1/subscriptions/store/${storeId}`).set(key()).send(body);
  const entitlement = async (id: string) => (await http().get(`/v1/entitlements/${id}`).set(key()).expect(200)).body.data;
  const checkEntitled = async (storeCustomerId: string) =>
    (await http().get(`/v1/entitlements/check?store_customer_id=${storeCustomerId}&product_id=${linked.id}`).set(key()).expect(200)).body.data.entitled;
  const subscriptionEvents = async (type: string, subscriptionId: string) => {
    const rows: { count: string }[] = await suite.testApp.app
      .get(DataSource)
      .query(`SELECT count(*)::text AS count FROM events WHERE type = $1 AND data->'object'->>'id' = $2`, [type, subscriptionId]);
    return Number(rows[0].count);
  };

  beforeAll(async () => {
    linked = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { entitlement_type: 'subscription_linked', store_variant_ids: [`var_${Date.now()}`] });
  });

  it('walks through every status, ignores an out-of-order update and never resurrects a revoke', async () => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute)).toISOString();
    const first = await put('sub_walk', { store_customer_id: 'cust_walk', store_variant_id: linked.store_variant_ids[0], status: 'trialing', store_updated_at: at(1) }).expect(201);
    const subscription = first.body.data;
    expect(subscription).toMatchObject({ store_subscription_id: 'sub_walk', store_customer_id: 'cust_walk', product_id: linked.id, status: 'trialing', applied: true, entitlement_status: 'active' });
    expect(subscription.id).toMatch(/^sub_/);
    const entitlementId: string = subscription.entitlement_id;
    expect(await entitlement(entitlementId)).toMatchObject({ source: 'subscription', status: 'active', expires_at: null });

    const steps: Array<[string, number, string]> = [
      ['active', 2, 'active'],
      ['past_due', 3, 'active'],
      ['paused', 4, 'suspended'],
    ];
    for (const [status, minute, entitlementStatus] of steps) {
      const response = await put('sub_walk', { status, store_updated_at: at(minute) }).expect(200);
      expect(response.body.data).toMatchObject({ id: subscription.id, status, applied: true, entitlement_id: entitlementId, entitlement_status: entitlementStatus });
    }
    expect(await checkEntitled('cust_walk')).toBe(false);

    // Out of order: older than the last applied state, so nothing changes.
    const stale = await put('sub_walk', { status: 'active', store_updated_at: at(3) }).expect(200);
    expect(stale.body.data).toMatchObject({ status: 'paused', applied: false, entitlement_status: 'suspended', store_updated_at: at(4) });
    expect((await entitlement(entitlementId)).status).toBe('suspended');

    expect((await put('sub_walk', { status: 'active', store_updated_at: at(5) }).expect(200)).body.data.entitlement_status).toBe('active');
    expect(await checkEntitled('cust_walk')).toBe(true);
    expect((await put('sub_walk', { status: 'canceled', store_updated_at: at(6) }).expect(200)).body.data.entitlement_status).toBe('expired');
    expect(await countEvents(suite.testApp, 'entitlement.expired', entitlementId)).toBe(1);
    expect((await put('sub_walk', { status: 'active', store_updated_at: at(7) }).expect(200)).body.data.entitlement_status).toBe('active');

    // A revoke in the middle: whatever the store says later, it stays revoked.
    await http().post(`/v1/entitlements/${entitlementId}/revoke`).set(key()).send({ reason: 'chargeback' }).expect(200);
    for (const [status, minute] of [['active', 8], ['paused', 9], ['trialing', 10], ['canceled', 11]] as const) {
      const response = await put('sub_walk', { status, store_updated_at: at(minute) }).expect(200);
      expect(response.body.data).toMatchObject({ status, applied: true, entitlement_id: entitlementId, entitlement_status: 'revoked' });
    }
    expect(await checkEntitled('cust_walk')).toBe(false);
    expect(await subscriptionEvents('subscription.created', subscription.id)).toBe(1);
    // Every applied later put: 3 steps + active, canceled, active + 4 after the revoke (the stale one is not).
    expect(await subscriptionEvents('subscription.updated', subscription.id)).toBe(10);

    const bySource = await http().get('/v1/entitlements?store_customer_id=cust_walk&source=subscription').set(key()).expect(200);
    expect(bySource.body.data.map((item: { id: string }) => item.id)).toEqual([entitlementId]);
  });

  it('cancel_at_period_end expires at the period end through the normal expiry path, published once', async () => {
    const periodEnd = new Date(suite.clock.now().getTime() + DAY);
    const response = await put('sub_period', {
      store_customer_id: 'cust_period',
      product_id: linked.id,
      status: 'active',
      current_period_end: periodEnd.toISOString(),
      cancel_at_period_end: true,
    }).expect(201);
    const entitlementId: string = response.body.data.entitlement_id;
    expect(response.body.data).toMatchObject({ cancel_at_period_end: true, current_period_end: periodEnd.toISOString() });
    expect((await entitlement(entitlementId)).expires_at).toBe(periodEnd.toISOString());
    expect(await checkEntitled('cust_period')).toBe(true);

    suite.clock.advance(DAY + 1000);
    expect(await checkEntitled('cust_period')).toBe(false);
    expect((await http().get(`/v1/subscriptions/${response.body.data.id}`).set(key()).expect(200)).body.data.entitlement_status).toBe('expired');
    const sweeper = suite.testApp.app.get(EntitlementExpirySweeper);
    await sweeper.sweep();
    await sweeper.sweep();
    // The store's own cancel after the period: already expired, nothing published again.
    await put('sub_period', { status: 'canceled' }).expect(200);
    expect(await countEvents(suite.testApp, 'entitlement.expired', entitlementId)).toBe(1);
  });

  it('undoing cancel_at_period_end removes the expiry; paused first creates a suspended entitlement; canceled first grants nothing', async () => {
    const periodEnd = new Date(suite.clock.now().getTime() + 10 * DAY).toISOString();
    const created = await put('sub_undo', { store_customer_id: 'cust_undo', product_id: linked.id, status: 'active', current_period_end: periodEnd, cancel_at_period_end: true }).expect(201);
    expect((await entitlement(created.body.data.entitlement_id)).expires_at).toBe(periodEnd);
    await put('sub_undo', { status: 'active', cancel_at_period_end: false }).expect(200);
    expect((await entitlement(created.body.data.entitlement_id)).expires_at).toBeNull();

    const paused = await put('sub_paused_first', { store_customer_id: 'cust_undo', product_id: linked.id, status: 'paused' }).expect(201);
    expect(paused.body.data.entitlement_status).toBe('suspended');
    const canceled = await put('sub_canceled_first', { store_customer_id: 'cust_undo', product_id: linked.id, status: 'canceled' }).expect(201);
    expect(canceled.body.data).toMatchObject({ entitlement_id: null, entitlement_status: null });
  });

  it('refuses other products, missing names and changed customers or products', async () => {
    const permanent = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test');
    const wrongType = await put('sub_err', { store_customer_id: 'cust_err', product_id: permanent.id, status: 'active' }).expect(400);
    expect(wrongType.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'product_id' });
    expect((await put('sub_err', { product_id: linked.id, status: 'active' }).expect(400)).body.error.code).toBe('MISSING_REQUIRED_FIELD');
    expect((await put('sub_err', { store_customer_id: 'cust_err', status: 'active' }).expect(400)).body.error.code).toBe('MISSING_REQUIRED_FIELD');
    // Two names for one thing: the same code as none, as on the entitlement routes.
    const bothCustomers = await put('sub_err', { customer_id: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w', store_customer_id: 'cust_err', product_id: linked.id, status: 'active' }).expect(400);
    expect(bothCustomers.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'store_customer_id' });
    const bothProducts = await put('sub_err', { store_customer_id: 'cust_err', product_id: linked.id, store_variant_id: 'v', status: 'active' }).expect(400);
    expect(bothProducts.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'store_variant_id' });
    expect((await put('sub_err', { store_customer_id: 'cust_err', store_product_id: 'nope', status: 'active' }).expect(404)).body.error.code).toBe('PRODUCT_NOT_FOUND');
    expect((await put('sub_err', { store_customer_id: 'cust_err', product_id: linked.id, status: 'gone' }).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
    expect((await put('sub_err', { store_customer_id: 'cust_err', product_id: linked.id, status: 'active', extra: 1 }).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
    // The path's store id has every store id's bound (255, as the document says); 255 itself is fine.
    expect((await put('s'.repeat(256), { store_customer_id: 'cust_err', product_id: linked.id, status: 'active' }).expect(400)).body.error).toMatchObject({
      code: 'INVALID_PARAMETER',
      param: 'store_subscription_id',
    });
    await put('s'.repeat(255), { store_customer_id: 'cust_long', product_id: linked.id, status: 'active' }).expect(201);

    await put('sub_err', { store_customer_id: 'cust_err', product_id: linked.id, status: 'active' }).expect(201);
    await put('sub_err', { store_customer_id: 'cust_err', product_id: linked.id, status: 'active' }).expect(200);
    const otherLinked = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { entitlement_type: 'subscription_linked' });
    expect((await put('sub_err', { product_id: otherLinked.id, status: 'active' }).expect(409)).body.error).toMatchObject({ code: 'SUBSCRIPTION_CONFLICT', param: 'product_id' });
    expect((await put('sub_err', { store_customer_id: 'someone_else', status: 'active' }).expect(409)).body.error).toMatchObject({ code: 'SUBSCRIPTION_CONFLICT', param: 'store_customer_id' });
  });

  it('serializes concurrent first puts: one 201, one entitlement', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => put('sub_race', { store_customer_id: 'cust_race', product_id: linked.id, status: 'active' })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.body.data.entitlement_id)).size).toBe(1);
    const list = await http().get(`/v1/entitlements?store_customer_id=cust_race&source=subscription`).set(key()).expect(200);
    expect(list.body.pagination.total).toBe(1);
  });

  it('reads by id, by store id and by customer, paginated', async () => {
    for (const index of [1, 2, 3]) await put(`sub_read_${index}`, { store_customer_id: 'cust_read', product_id: linked.id, status: 'active' }).expect(201);
    const byStore = (await http().get('/v1/subscriptions/store/sub_read_2').set(key()).expect(200)).body.data;
    expect(byStore).toMatchObject({ store_subscription_id: 'sub_read_2', applied: true, entitlement_status: 'active' });
    expect((await http().get(`/v1/subscriptions/${byStore.id}`).set(key()).expect(200)).body.data).toEqual(byStore);
    const firstPage = await http().get('/v1/subscriptions?store_customer_id=cust_read&limit=2').set(key()).expect(200);
    expect(firstPage.body.data.map((item: { store_subscription_id: string }) => item.store_subscription_id)).toEqual(['sub_read_3', 'sub_read_2']);
    expect(firstPage.body.pagination).toMatchObject({ total: 3, has_more: true });
    const secondPage = await http().get(`/v1/subscriptions?customer_id=${byStore.customer_id}&limit=2&cursor=${firstPage.body.pagination.next_cursor}`).set(key()).expect(200);
    expect(secondPage.body.data.map((item: { store_subscription_id: string }) => item.store_subscription_id)).toEqual(['sub_read_1']);
    expect((await http().get('/v1/subscriptions').set(key()).expect(400)).body.error.code).toBe('FILTER_REQUIRED');
    expect((await http().get('/v1/subscriptions?store_customer_id=nobody').set(key()).expect(200)).body.pagination.total).toBe(0);
    expect((await http().get('/v1/subscriptions/sub_nope').set(key()).expect(404)).body.error.code).toBe('SUBSCRIPTION_NOT_FOUND');
    expect((await http().get('/v1/subscriptions/store/nope').set(key()).expect(404)).body.error.code).toBe('SUBSCRIPTION_NOT_FOUND');
  });

  it('keeps merchants and modes apart on every route', async () => {
    const mine = (await put('sub_iso', { store_customer_id: 'cust_iso', product_id: linked.id, status: 'active' }).expect(201)).body.data;
    const other = await suite.testApp.createTenant();
    for (const otherKey of [bearer(other.testKey), bearer(suite.tenant.liveKey)]) {
      await http().get(`/v1/subscriptions/${mine.id}`).set(otherKey).expect(404);
      await http().get('/v1/subscriptions/store/sub_iso').set(otherKey).expect(404);
      expect((await http().get('/v1/subscriptions?store_customer_id=cust_iso').set(otherKey).expect(200)).body.pagination.total).toBe(0);
      // The product belongs to the test mode of this merchant: elsewhere it does not exist.
      expect((await http().put('/v1/subscriptions/store/sub_iso').set(otherKey).send({ store_customer_id: 'cust_iso', product_id: linked.id, status: 'active' }).expect(404)).body.error.code).toBe('PRODUCT_NOT_FOUND');
    }
    const readOnly = await suite.testApp.createKey(suite.tenant.merchantId, 'test', ['entitlements:read']);
    expect((await http().put('/v1/subscriptions/store/sub_iso').set(bearer(readOnly)).send({ status: 'active' }).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('a subscription_linked product granted through POST /v1/entitlements is linked to nothing', async () => {
    const response = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'cust_direct', product_id: linked.id }).expect(201);
    expect(response.body.data).toMatchObject({ source: 'api', status: 'active', expires_at: null });
  });
});
