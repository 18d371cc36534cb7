import { DataSource } from 'typeorm';
import { ENTITLEMENT_TEST_OVERRIDES, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

type Row = Record<string, unknown> & { id: string };

describe('orders and refunds (DESIGN §10)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  const key = () => bearer(tenant.testKey);

  beforeAll(async () => {
    testApp = await createTestApp(ENTITLEMENT_TEST_OVERRIDES);
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  const product = async (overrides: Parameters<typeof insertProduct>[3] = {}) => insertProduct(testApp, tenant.merchantId, 'test', overrides);
  const postOrder = (body: Record<string, unknown>, apiKey = tenant.testKey) => testApp.http.post('/v1/orders').set(bearer(apiKey)).send(body);

  async function countEvents(type: string, objectId: string): Promise<number> {
    const rows: { count: string }[] = await testApp.app
      .get(DataSource)
      .query(`SELECT count(*)::text AS count FROM events WHERE type = $1 AND data->'object'->>'id' = $2`, [type, objectId]);
    return Number(rows[0].count);
  }

  async function entitlementsOf(customerId: string, source?: string): Promise<Row[]> {
    const response = await testApp.http.get(`/v1/entitlements?customer_id=${customerId}${source ? `&source=${source}` : ''}&limit=100`).set(key()).expect(200);
    return response.body.data;
  }

  const entitlement = async (id: unknown): Promise<Row> => (await testApp.http.get(`/v1/entitlements/${String(id)}`).set(key()).expect(200)).body.data;

  it('records matched, store-id-matched, variant-matched, unmatched and archived line items, granting the matched ones', async () => {
    const byId = await product();
    const byStoreId = await product({ entitlement_type: 'usage_limited', usage_limit: 5 });
    const byVariant = await product({ store_variant_ids: ['var_blue', 'var_red'] });
    const archived = await product({ status: 'archived' });
    const response = await postOrder({
      store_order_id: 'order_mixed',
      store_customer_id: 'buyer_mixed',
      placed_at: '2026-11-20T10:15:00+01:00',
      metadata: { channel: 'web' },
      line_items: [
        { store_line_item_id: 'li_1', product_id: byId.id },
        { store_line_item_id: 'li_2', store_product_id: byStoreId.store_product_id, quantity: 3 },
        { store_line_item_id: 'li_3', store_variant_id: 'var_red' },
        { store_line_item_id: 'li_4', store_product_id: 'sku_gift_card' },
        { store_line_item_id: 'li_5', product_id: archived.id },
      ],
    }).expect(201);
    const order = response.body.data;
    expect(order).toMatchObject({
      id: expect.stringMatching(/^ord_/),
      store_order_id: 'order_mixed',
      store_customer_id: 'buyer_mixed',
      status: 'active',
      placed_at: '2026-11-20T09:15:00.000Z',
      metadata: { channel: 'web' },
    });
    expect(order.line_items.map((item: Row) => [item.store_line_item_id, item.product_id, item.status, item.skipped_reason])).toEqual([
      ['li_1', byId.id, 'granted', null],
      ['li_2', byStoreId.id, 'granted', null],
      ['li_3', byVariant.id, 'granted', null],
      ['li_4', null, 'unmatched', null],
      ['li_5', archived.id, 'skipped', 'product_archived'],
    ]);
    expect(order.line_items[3].entitlement_id).toBeNull();
    expect(order.line_items[4].entitlement_id).toBeNull();
    const granted = await entitlement(order.line_items[1].entitlement_id);
    expect(granted).toMatchObject({ source: 'order', store_order_id: 'order_mixed', store_line_item_id: 'li_2', usage_limit: 15, customer_id: order.customer_id });
    expect((await entitlementsOf(order.customer_id, 'ORDER')).length).toBe(3);
    expect(await countEvents('order.created', order.id)).toBe(1);

    expect((await testApp.http.get(`/v1/orders/${order.id}`).set(key()).expect(200)).body.data).toEqual(order);
    expect((await testApp.http.get('/v1/orders/store/order_mixed').set(key()).expect(200)).body.data).toEqual(order);
  });

  it('an identical repeat whose metadata has several keys publishes no order.updated (jsonb compared by content, not key order)', async () => {
    const item = await product();
    // jsonb stores keys shortest first: the stored object serializes in another order than this one.
    const metadata = { zeta_long_key: 1, a: { second: true, first: [1, { y: 2, x: 1 }] }, mid: 'm' };
    const body = { store_order_id: 'order_jsonb', store_customer_id: 'buyer_jsonb', metadata, line_items: [{ store_line_item_id: 'a', product_id: item.id }] };
    const created = (await postOrder(body).expect(201)).body.data;
    await postOrder(body).expect(200);
    await postOrder({ ...body, metadata: { mid: 'm', a: { first: [1, { x: 1, y: 2 }], second: true }, zeta_long_key: 1 } }).expect(200);
    expect(await countEvents('order.updated', created.id)).toBe(0);
  });

  it('a repeat post grants only new line items (200), an identical one changes nothing, another customer is 409', async () => {
    const first = await product();
    const second = await product();
    const body = { store_order_id: 'order_repeat', store_customer_id: 'buyer_repeat', line_items: [{ store_line_item_id: 'a', product_id: first.id }] };
    const created = (await postOrder(body).expect(201)).body.data;
    const updated = (
      await postOrder({ ...body, metadata: { edited: true }, line_items: [...body.line_items, { store_line_item_id: 'b', product_id: second.id }] }).expect(200)
    ).body.data;
    expect(updated.id).toBe(created.id);
    expect(updated.metadata).toEqual({ edited: true });
    expect(updated.line_items.map((item: Row) => item.store_line_item_id)).toEqual(['a', 'b']);
    expect(updated.line_items[0].entitlement_id).toBe(created.line_items[0].entitlement_id);
    expect(await countEvents('order.updated', created.id)).toBe(1);

    const again = (await postOrder({ ...body, metadata: { edited: true } }).expect(200)).body.data;
    expect(again.line_items).toEqual(updated.line_items);
    expect(await countEvents('order.updated', created.id)).toBe(1);
    expect(await entitlementsOf(created.customer_id, 'order')).toHaveLength(2);

    const mismatch = await postOrder({ ...body, store_customer_id: 'someone_else' }).expect(409);
    expect(mismatch.body.error.code).toBe('ORDER_CUSTOMER_MISMATCH');
  });

  it('10 concurrent posts of one order: one 201, nine 200, every line item granted once', async () => {
    const [first, second] = [await product(), await product()];
    const body = {
      store_order_id: 'order_concurrent',
      store_customer_id: 'buyer_concurrent',
      line_items: [
        { store_line_item_id: 'x1', product_id: first.id },
        { store_line_item_id: 'x2', product_id: second.id },
      ],
    };
    const responses = await Promise.all(Array.from({ length: 10 }, () => postOrder(body)));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const customerId = responses[0].body.data.customer_id;
    const rows = await entitlementsOf(customerId, 'ORDER');
    expect(rows.map((row) => row.store_order_id)).toEqual(['order_concurrent', 'order_concurrent']);
    for (const response of responses) expect(response.body.data.line_items.map((item: Row) => item.entitlement_id).sort()).toEqual(rows.map((row) => row.id).sort());
  });

  it('replays the first post’s 201 and a later post’s 200 under their Idempotency-Keys', async () => {
    const item = await product();
    const body = { store_order_id: 'order_idempotent', store_customer_id: 'buyer_idempotent', line_items: [{ store_line_item_id: 'i1', product_id: item.id }] };
    const first = await postOrder(body).set('Idempotency-Key', 'order-first').expect(201);
    const replayed = await postOrder(body).set('Idempotency-Key', 'order-first').expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body.data).toEqual(first.body.data);
    const later = await postOrder(body).set('Idempotency-Key', 'order-second').expect(200);
    const laterReplay = await postOrder(body).set('Idempotency-Key', 'order-second').expect(200);
    expect(laterReplay.headers['idempotent-replayed']).toBe('true');
    expect(laterReplay.body.data).toEqual(later.body.data);
  });

  it('is all or nothing: an unknown product id or an invalid line item refuses the post and grants nothing', async () => {
    const item = await product();
    const unknown = await postOrder({
      store_order_id: 'order_refused',
      store_customer_id: 'buyer_refused',
      line_items: [
        { store_line_item_id: 'ok', product_id: item.id },
        { store_line_item_id: 'bad', product_id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' },
      ],
    }).expect(404);
    expect(unknown.body.error).toMatchObject({ code: 'PRODUCT_NOT_FOUND', param: 'line_items[1].product_id' });
    expect((await testApp.http.get('/v1/orders/store/order_refused').set(key()).expect(404)).body.error.code).toBe('ORDER_NOT_FOUND');
    expect((await testApp.http.get('/v1/entitlements?store_customer_id=buyer_refused').set(key()).expect(200)).body.data).toEqual([]);

    const refusals: Array<[Record<string, unknown>, number, string]> = [
      // Both of two names for one thing: the entitlement routes' code, on every route (one mistake, one code).
      [{ line_items: [{ store_line_item_id: 'a', product_id: item.id, store_variant_id: 'v' }] }, 400, 'MISSING_REQUIRED_FIELD'],
      [{ customer_id: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w', line_items: [{ store_line_item_id: 'a', product_id: item.id }] }, 400, 'MISSING_REQUIRED_FIELD'],
      [{ line_items: [{ store_line_item_id: 'a' }] }, 400, 'MISSING_REQUIRED_FIELD'],
      [{ line_items: [{ store_line_item_id: 'a', product_id: item.id, quantity: 0 }] }, 400, 'INVALID_PARAMETER'],
      [{ line_items: [] }, 400, 'INVALID_PARAMETER'],
      [{ line_items: [{ store_line_item_id: 'a', product_id: item.id }, { store_line_item_id: 'a', product_id: item.id }] }, 400, 'INVALID_PARAMETER'],
      [{ customer_id: 'cus_01jd8x3k2m4n5p6q7r8s9t0v1w', store_customer_id: undefined, line_items: [{ store_line_item_id: 'a', product_id: item.id }] }, 404, 'CUSTOMER_NOT_FOUND'],
    ];
    for (const [changes, status, code] of refusals) {
      const response = await postOrder({ store_order_id: 'order_refused', store_customer_id: 'buyer_refused', ...changes }).expect(status);
      expect(response.body.error.code).toBe(code);
    }
    expect((await postOrder({ store_order_id: 'order_refused', line_items: [{ store_line_item_id: 'a', product_id: item.id }] }).expect(400)).body.error.code).toBe(
      'MISSING_REQUIRED_FIELD',
    );
    await testApp.http.get('/v1/orders/store/order_refused').set(key()).expect(404);
  });

  it('partial then full refund: revokes exactly those entitlements, idempotently, and publishes order.refunded', async () => {
    const [first, second] = [await product(), await product()];
    const order = (
      await postOrder({
        store_order_id: 'order_refund',
        store_customer_id: 'buyer_refund',
        line_items: [
          { store_line_item_id: 'r1', product_id: first.id },
          { store_line_item_id: 'r2', product_id: second.id },
          { store_line_item_id: 'r3', store_product_id: 'not_ours' },
        ],
      }).expect(201)
    ).body.data;
    const partial = (await testApp.http.post(`/v1/orders/${order.id}/refund`).set(key()).send({ store_line_item_ids: ['r1'], reason: 'chargeback' }).expect(200)).body.data;
    expect(partial.status).toBe('partially_refunded');
    expect(partial.line_items.map((item: Row) => item.status)).toEqual(['refunded', 'granted', 'unmatched']);
    expect(await entitlement(order.line_items[0].entitlement_id)).toMatchObject({ status: 'revoked', revocation_reason: 'chargeback' });
    expect((await entitlement(order.line_items[1].entitlement_id)).status).toBe('active');

    const repeat = (await testApp.http.post(`/v1/orders/${order.id}/refund`).set(key()).send({ store_line_item_ids: ['r1'] }).expect(200)).body.data;
    expect(repeat.status).toBe('partially_refunded');
    expect(await countEvents('order.refunded', order.id)).toBe(1);

    const full = (await testApp.http.post(`/v1/orders/${order.id}/refund`).set(key()).send({}).expect(200)).body.data;
    expect(full.status).toBe('refunded');
    expect(await entitlement(order.line_items[1].entitlement_id)).toMatchObject({ status: 'revoked', revocation_reason: 'refunded' });
    expect(await countEvents('order.refunded', order.id)).toBe(2);
    await testApp.http.post(`/v1/orders/${order.id}/refund`).set(key()).send({}).expect(200);
    expect(await countEvents('order.refunded', order.id)).toBe(2);

    const unknownItem = await testApp.http.post(`/v1/orders/${order.id}/refund`).set(key()).send({ store_line_item_ids: ['nope'] }).expect(400);
    expect(unknownItem.body.error.param).toBe('store_line_item_ids');
    expect((await testApp.http.post('/v1/orders/ord_nope/refund').set(key()).send({}).expect(404)).body.error.code).toBe('ORDER_NOT_FOUND');
  });

  it('a bundle line item grants its children; refunding it revokes them; a rule fires for the order grant; source filters find each', async () => {
    const [included, bonus] = [await product(), await product()];
    const bundle = (
      await testApp.http.post('/v1/products').set(key()).send({ name: 'Bundle', entitlement_type: 'permanent', included_product_ids: [included.id] }).expect(201)
    ).body.data;
    await testApp.http.post('/v1/grant-rules').set(key()).send({ trigger_product_id: bundle.id, grant_product_id: bonus.id }).expect(201);
    const order = (
      await postOrder({ store_order_id: 'order_bundle', store_customer_id: 'buyer_bundle', line_items: [{ store_line_item_id: 'b1', product_id: bundle.id }] }).expect(201)
    ).body.data;
    const [child] = await entitlementsOf(order.customer_id, 'BUNDLE');
    expect(child).toMatchObject({ product_id: included.id, store_order_id: 'order_bundle' });
    expect((await entitlement(child.id)).parent_entitlement_id).toBe(order.line_items[0].entitlement_id);
    const [ruled] = await entitlementsOf(order.customer_id, 'RULE');
    expect(ruled).toMatchObject({ product_id: bonus.id, status: 'active' });
    expect((await entitlementsOf(order.customer_id, 'order')).map((row) => row.id)).toEqual([order.line_items[0].entitlement_id]);

    await testApp.http.post(`/v1/orders/${order.id}/refund`).set(key()).send({}).expect(200);
    expect((await entitlement(child.id)).status).toBe('revoked');
    expect(await countEvents('entitlement.revoked', child.id)).toBe(1);
    // A rule's grant is independent of what triggered it.
    expect((await entitlement(ruled.id)).status).toBe('active');
  });

  it('lists a customer’s orders by customer_id or store_customer_id, paginated; without a filter, every order', async () => {
    const item = await product();
    for (const storeOrderId of ['list_1', 'list_2', 'list_3']) {
      await postOrder({ store_order_id: storeOrderId, store_customer_id: 'buyer_list', line_items: [{ store_line_item_id: 'l', product_id: item.id }] }).expect(201);
    }
    const page = (await testApp.http.get('/v1/orders?store_customer_id=buyer_list&limit=2').set(key()).expect(200)).body;
    expect(page.data.map((row: Row) => row.store_order_id)).toEqual(['list_3', 'list_2']);
    expect(page.pagination).toMatchObject({ total: 3, limit: 2, has_more: true });
    const next = (await testApp.http.get(`/v1/orders?store_customer_id=buyer_list&limit=2&cursor=${page.pagination.next_cursor}`).set(key()).expect(200)).body;
    expect(next.data.map((row: Row) => row.store_order_id)).toEqual(['list_1']);
    const customerId = page.data[0].customer_id;
    expect((await testApp.http.get(`/v1/orders?customer_id=${customerId}`).set(key()).expect(200)).body.pagination.total).toBe(3);
    expect((await testApp.http.get('/v1/orders?store_customer_id=nobody').set(key()).expect(200)).body).toMatchObject({ data: [], pagination: { total: 0 } });
    const unfiltered = (await testApp.http.get('/v1/orders?limit=1').set(key()).expect(200)).body;
    expect(unfiltered.data.map((row: Row) => row.store_order_id)).toEqual(['list_3']);
    expect(unfiltered.pagination.total).toBeGreaterThanOrEqual(3);
  });

  it('is isolated: another merchant and the other mode see 404 and empty lists; the same store id in live mode is another order', async () => {
    const item = await product();
    const order = (
      await postOrder({ store_order_id: 'order_isolated', store_customer_id: 'buyer_isolated', line_items: [{ store_line_item_id: 'i', product_id: item.id }] }).expect(201)
    ).body.data;
    for (const apiKey of [other.testKey, tenant.liveKey]) {
      const as = bearer(apiKey);
      expect((await testApp.http.get(`/v1/orders/${order.id}`).set(as).expect(404)).body.error.code).toBe('ORDER_NOT_FOUND');
      await testApp.http.get('/v1/orders/store/order_isolated').set(as).expect(404);
      await testApp.http.post(`/v1/orders/${order.id}/refund`).set(as).send({}).expect(404);
      expect((await testApp.http.get(`/v1/orders?customer_id=${order.customer_id}`).set(as).expect(200)).body.data).toEqual([]);
      expect((await testApp.http.get('/v1/orders?store_customer_id=buyer_isolated').set(as).expect(200)).body.data).toEqual([]);
      // Another tenant's product id is unknown here.
      const foreign = await postOrder({ store_order_id: 'order_isolated', store_customer_id: 'buyer_isolated', line_items: [{ store_line_item_id: 'i', product_id: item.id }] }, apiKey).expect(404);
      expect(foreign.body.error.code).toBe('PRODUCT_NOT_FOUND');
    }
    const live = await postOrder({ store_order_id: 'order_isolated', store_customer_id: 'buyer_isolated', line_items: [{ store_line_item_id: 'i', store_product_id: 'x' }] }, tenant.liveKey).expect(201);
    expect(live.body.data.id).not.toBe(order.id);
    expect((await testApp.http.get(`/v1/orders/${order.id}`).set(key()).expect(200)).body.data.line_items[0].status).toBe('granted');
  });
});
