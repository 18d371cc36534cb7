import { entitlementSuite, countEvents, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer } from '../support/test-app';
import { EntitlementExpirySweeper } from '../../src/entitlements/entitlement-expiry.sweeper';

const DAY = 24 * 60 * 60 * 1000;

describe('entitlements: create, read, lifecycle, expiry', () => {
  const suite = entitlementSuite('test');

  const http = () => suite.testApp.http;
  const key = () => bearer(suite.tenant.testKey);

  it('grants by store ids, creating the customer once, and reads it back in full', async () => {
    const created = await http()
      .post('/v1/entitlements')
      .set(key())
      .send({ store_customer_id: 'cust_a', store_product_id: suite.product.store_product_id, metadata: { a: 1 }, store_order_id: 'o1', store_line_item_id: 'l1' })
      .expect(201);
    const entitlement = created.body.data;
    expect(entitlement).toMatchObject({
      status: 'active',
      source: 'api',
      product_id: suite.product.id,
      store_customer_id: 'cust_a',
      expires_at: null,
      usage_count: 0,
      usage_limit: null,
      metadata: { a: 1 },
      store_order_id: 'o1',
      store_line_item_id: 'l1',
      parent_entitlement_id: null,
      suspended_at: null,
      suspension_reason: null,
      revoked_at: null,
      revocation_reason: null,
    });
    expect(entitlement.customer_id).toMatch(/^cus_/);
    const again = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_a', product_id: suite.product.id });
    expect(again.customer_id).toBe(entitlement.customer_id);

    const read = await http().get(`/v1/entitlements/${entitlement.id}`).set(key()).expect(200);
    expect(read.body.data).toEqual(entitlement);
    expect(await countEvents(suite.testApp, 'entitlement.created', entitlement.id)).toBe(1);

    const check = await http()
      .get(`/v1/entitlements/check?store_customer_id=cust_a&product_id=${suite.product.id}`)
      .set(key())
      .expect(200);
    expect(check.body.data.entitled).toBe(true);
    expect(Object.keys(check.body.data.entitlement).sort()).toEqual(
      ['access_type', 'expires_at', 'granted_at', 'id', 'metadata', 'product_id', 'status'].sort(),
    );
  });

  it('applies product defaults, expires by time from the instant, and the sweeper records it once', async () => {
    const timed = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { entitlement_type: 'time_limited', access_duration_days: 30 });
    const entitlement = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_time', product_id: timed.id });
    expect(new Date(entitlement.expires_at as string).getTime()).toBe(new Date(entitlement.granted_at as string).getTime() + 30 * DAY);
    const checkUrl = `/v1/entitlements/check?store_customer_id=cust_time&product_id=${timed.id}`;
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitled).toBe(true);

    suite.clock.set(new Date(entitlement.expires_at as string));
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data).toEqual({ entitled: false, entitlement: null });
    expect((await http().get(`/v1/entitlements/${entitlement.id}`).set(key()).expect(200)).body.data.status).toBe('expired');

    const sweeper = suite.testApp.app.get(EntitlementExpirySweeper);
    expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
    await sweeper.sweep();
    expect(await countEvents(suite.testApp, 'entitlement.expired', entitlement.id)).toBe(1);

    const refused = await http().post(`/v1/entitlements/${entitlement.id}/reactivate`).set(key()).send({}).expect(409);
    expect(refused.body.error.code).toBe('INVALID_STATUS_TRANSITION');
    expect(refused.body.error.message).toContain('expires_at');
    const later = new Date(suite.clock.now().getTime() + DAY).toISOString();
    const reactivated = await http().post(`/v1/entitlements/${entitlement.id}/reactivate`).set(key()).send({ expires_at: later }).expect(200);
    expect(reactivated.body.data).toMatchObject({ status: 'active', expires_at: later });
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitled).toBe(true);
  });

  it('counts uses: the one reaching the limit succeeds, the next is refused', async () => {
    const limited = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { entitlement_type: 'usage_limited', usage_limit: 2 });
    const entitlement = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_use', product_id: limited.id });
    expect(entitlement.usage_limit).toBe(2);
    await http().post(`/v1/entitlements/${entitlement.id}/usage`).set(key()).send({}).expect(200);
    const last = await http().post(`/v1/entitlements/${entitlement.id}/usage`).set(key()).send({ quantity: 1 }).expect(200);
    expect(last.body.data).toMatchObject({ usage_count: 2, status: 'expired' });
    const refused = await http().post(`/v1/entitlements/${entitlement.id}/usage`).set(key()).send({}).expect(409);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', message: 'Cannot use an entitlement that is expired' });
    const check = await http().get(`/v1/entitlements/check?store_customer_id=cust_use&product_id=${limited.id}`).set(key()).expect(200);
    expect(check.body.data.entitled).toBe(false);
  });

  it('suspends, reactivates, revokes; revoked is terminal; the check sees each on the next request', async () => {
    const entitlement = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_ops', product_id: suite.product.id });
    const checkUrl = `/v1/entitlements/check?customer_id=${entitlement.customer_id}&store_product_id=${suite.product.store_product_id}`;
    const suspended = await http().post(`/v1/entitlements/${entitlement.id}/suspend`).set(key()).send({ reason: 'chargeback' }).expect(200);
    expect(suspended.body.data).toMatchObject({ status: 'suspended', suspension_reason: 'chargeback' });
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitled).toBe(false);
    await http().post(`/v1/entitlements/${entitlement.id}/reactivate`).set(key()).expect(200);
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitled).toBe(true);
    const revoked = await http().post(`/v1/entitlements/${entitlement.id}/revoke`).set(key()).send({ reason: 'refund' }).expect(200);
    expect(revoked.body.data).toMatchObject({ status: 'revoked', revocation_reason: 'refund' });
    expect(revoked.body.data.revoked_at).toMatch(/Z$/);
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitled).toBe(false);
    const patch = await http().patch(`/v1/entitlements/${entitlement.id}`).set(key()).send({ metadata: {} }).expect(409);
    expect(patch.body.error.message).toBe('Cannot update an entitlement that is revoked');
  });

  it('creates pending entitlements and activates them', async () => {
    const entitlement = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_pending', product_id: suite.product.id, status: 'pending' });
    expect(entitlement.status).toBe('pending');
    const checkUrl = `/v1/entitlements/check?store_customer_id=cust_pending&product_id=${suite.product.id}`;
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitled).toBe(false);
    await http().post(`/v1/entitlements/${entitlement.id}/activate`).set(key()).expect(200);
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitled).toBe(true);
    expect(await countEvents(suite.testApp, 'entitlement.activated', entitlement.id)).toBe(1);
  });

  it('returns the entitlement that lasts longest', async () => {
    const customer = 'cust_longest';
    await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: customer, product_id: suite.product.id, expires_at: new Date(suite.clock.now().getTime() + DAY).toISOString() });
    const longer = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: customer, product_id: suite.product.id, expires_at: new Date(suite.clock.now().getTime() + 5 * DAY).toISOString() });
    const checkUrl = `/v1/entitlements/check?store_customer_id=${customer}&product_id=${suite.product.id}`;
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitlement.id).toBe(longer.id);
    const forever = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: customer, product_id: suite.product.id });
    expect((await http().get(checkUrl).set(key()).expect(200)).body.data.entitlement.id).toBe(forever.id);
  });

  it('refuses archived products and unknown customers/products', async () => {
    const archived = await insertProduct(suite.testApp, suite.tenant.merchantId, 'test', { status: 'archived' });
    const response = await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'x', product_id: archived.id }).expect(409);
    expect(response.body.error.code).toBe('PRODUCT_ARCHIVED');
    expect((await http().post('/v1/entitlements').set(key()).send({ customer_id: 'cus_nope', product_id: suite.product.id }).expect(404)).body.error.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await http().post('/v1/entitlements').set(key()).send({ store_customer_id: 'y', store_product_id: 'nope' }).expect(404)).body.error.code).toBe('PRODUCT_NOT_FOUND');
    const check = await http().get(`/v1/entitlements/check?store_customer_id=nobody&store_product_id=nothing`).set(key()).expect(200);
    expect(check.body.data).toEqual({ entitled: false, entitlement: null });
  });

  it('concurrent sweeps (as from several instances) expire each entitlement once', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      ids.push((await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_sweep', product_id: suite.product.id, expires_at: new Date(suite.clock.now().getTime() + DAY).toISOString() })).id);
    }
    suite.clock.advance(2 * DAY);
    const sweeper = suite.testApp.app.get(EntitlementExpirySweeper);
    const counts = await Promise.all([sweeper.sweep(), sweeper.sweep(), sweeper.sweep()]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(ids.length);
    for (const id of ids) expect(await countEvents(suite.testApp, 'entitlement.expired', id)).toBe(1);
    const expired = await http().get('/v1/entitlements?store_customer_id=cust_sweep&status=EXPIRED').set(key()).expect(200);
    expect(expired.body.pagination.total).toBe(ids.length);
  });

  it('lists a customer by id and by store id in the list-item shape, every status', async () => {
    const first = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_list', product_id: suite.product.id });
    const second = await grant(suite.testApp, suite.tenant.testKey, { store_customer_id: 'cust_list', product_id: suite.product.id });
    await http().post(`/v1/entitlements/${first.id}/revoke`).set(key()).send({}).expect(200);
    for (const url of [`/v1/customers/${first.customer_id}/entitlements`, '/v1/customers/store/cust_list/entitlements']) {
      const response = await http().get(url).set(key()).expect(200);
      expect(response.body.pagination).toEqual({ total: 2, limit: 25, has_more: false, next_cursor: null });
      expect(response.body.data.map((item: { id: string; status: string }) => [item.id, item.status])).toEqual([
        [second.id, 'active'],
        [first.id, 'revoked'],
      ]);
      expect(Object.keys(response.body.data[0]).sort()).toEqual(['expires_at', 'granted_at', 'id', 'metadata', 'product_id', 'product_name', 'source', 'status']);
    }
  });
});
