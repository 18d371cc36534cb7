import { DataSource } from 'typeorm';
import { eventually } from '../support/eventually';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Identified {
  id: string;
}
const ids = (body: { data: Identified[] }) => body.data.map((row) => row.id);

/**
 * The server-side search and filters the dashboard's pages need (issue 24 item 3), each combined
 * with cursor pages and the total: products, orders, subscriptions, events (by the object they are
 * about) and one event's deliveries, files, and every entitlement filter; list items name their
 * products, so a page needs no call per row.
 */
describe('list search and filters', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let receiver: WebhookReceiver;
  const key = () => bearer(tenant.testKey);
  const get = (path: string, query: Record<string, string> = {}, as = key()) => testApp.http.get(path).query(query).set(as);

  async function createProduct(body: Record<string, unknown>, as = key()): Promise<Identified & { name: string }> {
    return (await testApp.http.post('/v1/products').set(as).send({ entitlement_type: 'permanent', ...body }).expect(201)).body.data;
  }

  /** Every page of a list, following next_cursor, checking the total on each. */
  async function allPages(path: string, query: Record<string, string>): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    let total: number | null = null;
    do {
      const pageQuery: Record<string, string> = cursor ? { ...query, limit: '2', cursor } : { ...query, limit: '2' };
      const page = await get(path, pageQuery).expect(200);
      total ??= page.body.pagination.total;
      expect(page.body.pagination.total).toBe(total);
      seen.push(...ids(page.body));
      cursor = page.body.pagination.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(total ?? 0);
    return seen;
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await testApp.close();
  });

  it('searches products by exact id, exact store id or a part of the name, by status, and by a list of ids', async () => {
    const guide = await createProduct({ name: 'The Field Guide (ebook)', store_product_id: 'sku_guide' });
    const atlas = await createProduct({ name: 'Atlas of FIELDS', store_product_id: 'sku_atlas' });
    const course = await createProduct({ name: '50% off course', store_product_id: 'sku_course' });
    const archived = await createProduct({ name: 'Old field notes' });
    await testApp.http.delete(`/v1/products/${archived.id}`).set(key()).expect(200);
    await createProduct({ name: 'Field guide of another merchant' }, bearer(other.testKey));
    await createProduct({ name: 'Live field guide' }, bearer(tenant.liveKey));

    expect(await allPages('/v1/products', { search: 'field' })).toEqual([archived.id, atlas.id, guide.id]);
    expect(await allPages('/v1/products', { search: 'field', status: 'active' })).toEqual([atlas.id, guide.id]);
    expect(ids((await get('/v1/products', { status: 'archived' }).expect(200)).body)).toEqual([archived.id]);
    expect(ids((await get('/v1/products', { search: 'sku_atlas' }).expect(200)).body)).toEqual([atlas.id]);
    expect(ids((await get('/v1/products', { search: guide.id }).expect(200)).body)).toEqual([guide.id]);
    // LIKE wildcards are literal: '%' finds the one name with a percent sign, not every name.
    expect(ids((await get('/v1/products', { search: '%' }).expect(200)).body)).toEqual([course.id]);
    expect(ids((await get('/v1/products', { search: 'sku_' }).expect(200)).body)).toEqual([]);

    const named = await get('/v1/products', { ids: `${guide.id},${course.id},prod_01jd8x3k2m4n5p6q7r8s9t0v1w` }).expect(200);
    expect(named.body.data.map((product: { id: string; name: string }) => [product.id, product.name])).toEqual([
      [course.id, '50% off course'],
      [guide.id, 'The Field Guide (ebook)'],
    ]);
    expect(named.body.pagination.total).toBe(2);
    const tooMany = Array.from({ length: 101 }, (_, index) => `prod_${index}`).join(',');
    const refused: Array<Record<string, string>> = [{ ids: tooMany }, { ids: '' }, { ids: 'a,,b' }, { ids: 'prod_1 OR 1=1' }, { status: 'deleted' }, { search: '' }];
    for (const query of refused) {
      expect((await get('/v1/products', query).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
    }
  });

  it('lists every order without a customer filter, searches by id or store order id, and still filters by customer', async () => {
    const book = await createProduct({ name: 'Order book' });
    const post = (storeOrderId: string, storeCustomerId: string) =>
      testApp.http
        .post('/v1/orders')
        .set(key())
        .send({ store_order_id: storeOrderId, store_customer_id: storeCustomerId, line_items: [{ store_line_item_id: 'l1', product_id: book.id }] })
        .expect(201);
    const first = (await post('ord_search_1', 'buyer_a')).body.data;
    const second = (await post('ord_search_2', 'buyer_b')).body.data;
    const third = (await post('ord_search_3', 'buyer_a')).body.data;
    const listed = await allPages('/v1/orders', {});
    expect(listed.slice(0, 3)).toEqual([third.id, second.id, first.id]);
    expect(ids((await get('/v1/orders', { search: 'ord_search_2' }).expect(200)).body)).toEqual([second.id]);
    expect(ids((await get('/v1/orders', { search: first.id }).expect(200)).body)).toEqual([first.id]);
    expect(ids((await get('/v1/orders', { search: 'ord_search' }).expect(200)).body)).toEqual([]);
    expect(await allPages('/v1/orders', { store_customer_id: 'buyer_a' })).toEqual([third.id, first.id]);
    expect(ids((await get('/v1/orders', { store_customer_id: 'buyer_a', search: 'ord_search_2' }).expect(200)).body)).toEqual([]);
    expect(ids((await get('/v1/orders', {}, bearer(other.testKey)).expect(200)).body)).toEqual([]);
  });

  it('lists every subscription without a customer filter, by status, searched by id or store id', async () => {
    const plan = await createProduct({ name: 'Pro plan', entitlement_type: 'subscription_linked' });
    const put = (storeSubscriptionId: string, status: string) =>
      testApp.http.put(`/v1/subscriptions/store/${storeSubscriptionId}`).set(key()).send({ store_customer_id: `sub_buyer_${storeSubscriptionId}`, product_id: plan.id, status });
    const active = (await put('sub_f_1', 'active').expect(201)).body.data;
    const paused = (await put('sub_f_2', 'paused').expect(201)).body.data;
    const trialing = (await put('sub_f_3', 'trialing').expect(201)).body.data;
    expect(await allPages('/v1/subscriptions', {})).toEqual([trialing.id, paused.id, active.id]);
    expect(ids((await get('/v1/subscriptions', { status: 'paused' }).expect(200)).body)).toEqual([paused.id]);
    const found = await get('/v1/subscriptions', { search: 'sub_f_1' }).expect(200);
    expect(found.body.data).toEqual([expect.objectContaining({ id: active.id, entitlement_status: 'active', store_customer_id: 'sub_buyer_sub_f_1' })]);
    expect(ids((await get('/v1/subscriptions', { search: paused.id }).expect(200)).body)).toEqual([paused.id]);
    expect(ids((await get('/v1/subscriptions', { store_customer_id: 'sub_buyer_sub_f_3', status: 'trialing' }).expect(200)).body)).toEqual([trialing.id]);
    expect((await get('/v1/subscriptions', { status: 'gone' }).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
  });

  it("filters events by the object they are about, and lists one event's deliveries to every endpoint", async () => {
    const hook = async (path: string) =>
      (await testApp.http.post('/v1/webhook-endpoints').set(key()).send({ url: receiver.url(path), enabled_events: ['entitlement.revoked'] }).expect(201)).body.data;
    const first = await hook('/first');
    const second = await hook('/second');
    const book = await createProduct({ name: 'Evented book' });
    const granted = (await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: 'evented', product_id: book.id }).expect(201)).body.data;
    await testApp.http.post(`/v1/entitlements/${granted.id}/suspend`).set(key()).send({}).expect(200);
    await testApp.http.post(`/v1/entitlements/${granted.id}/revoke`).set(key()).send({ reason: 'test' }).expect(200);

    const events = await get('/v1/events', { object_id: granted.id }).expect(200);
    expect(events.body.data.map((event: { type: string }) => event.type)).toEqual(['entitlement.revoked', 'entitlement.suspended', 'entitlement.created']);
    expect(events.body.data.every((event: { data: { object: { id: string } } }) => event.data.object.id === granted.id)).toBe(true);
    expect(events.body.pagination.total).toBe(3);
    expect(ids((await get('/v1/events', { object_id: granted.id, type: 'entitlement.suspended' }).expect(200)).body)).toHaveLength(1);
    expect(ids((await get('/v1/events', { object_id: book.id }).expect(200)).body)).toHaveLength(1);
    expect((await get('/v1/events', { object_id: granted.id }, bearer(tenant.liveKey)).expect(200)).body.data).toEqual([]);

    const revoked = events.body.data[0].id as string;
    await receiver.until(() => receiver.at('/first').length >= 1 && receiver.at('/second').length >= 1);
    // The attempt rows are written once each answer is read: wait until both are.
    await eventually(async () => (await get(`/v1/events/${revoked}/deliveries`).expect(200)).body.pagination.total === 2, 10_000, 50);
    const deliveries: { body: { data: Array<{ endpoint_id: string; event_id: string; status_code: number; succeeded: boolean }> } } = await get(
      `/v1/events/${revoked}/deliveries`,
    ).expect(200);
    expect(deliveries.body.data.map((attempt) => attempt.endpoint_id).sort()).toEqual([first.id, second.id].sort());
    expect(deliveries.body.data.every((attempt) => attempt.event_id === revoked && attempt.status_code === 200 && attempt.succeeded)).toBe(true);
    const suspendedEvent = events.body.data[1].id as string;
    expect((await get(`/v1/events/${suspendedEvent}/deliveries`).expect(200)).body).toMatchObject({ data: [], pagination: { total: 0 } });
    for (const missing of ['evt_01jd8x3k2m4n5p6q7r8s9t0v1w', 'nope']) {
      expect((await get(`/v1/events/${missing}/deliveries`).expect(404)).body.error.code).toBe('EVENT_NOT_FOUND');
    }
    await get(`/v1/events/${revoked}/deliveries`, {}, bearer(other.testKey)).expect(404);
    const noEvents = await testApp.createKey(tenant.merchantId, 'test', ['webhooks:manage']);
    await get(`/v1/events/${revoked}/deliveries`, {}, bearer(noEvents)).expect(403);
  });

  it("filters files by product and upload status", async () => {
    const book = await createProduct({ name: 'Filed book', fulfillment_config: { delivery_method: 'FILE', file_ids: [] } });
    const upload = async (productId?: string) =>
      (await testApp.http.post('/v1/files/upload-url').set(key()).send({ file_name: 'a.pdf', file_size: 4, mime_type: 'application/pdf', ...(productId ? { product_id: productId } : {}) }).expect(201)).body.data;
    const linked = await upload(book.id);
    const loose = await upload();
    const confirmed = await upload(book.id);
    const target = new URL(confirmed.upload_url);
    await testApp.http.put(`${target.pathname}${target.search}`).set(confirmed.upload_headers).send(Buffer.from('%PDF')).expect((response) => expect(response.status).toBeLessThan(300));
    await testApp.http.post(`/v1/files/${confirmed.file_id}/confirm`).set(key()).expect(200);

    expect(await allPages('/v1/files', { product_id: book.id })).toEqual([confirmed.file_id, linked.file_id]);
    expect(ids((await get('/v1/files', { product_id: book.id, upload_status: 'PENDING' }).expect(200)).body)).toEqual([linked.file_id]);
    expect(ids((await get('/v1/files', { upload_status: 'PENDING' }).expect(200)).body)).toEqual(expect.arrayContaining([linked.file_id, loose.file_id]));
    expect(ids((await get('/v1/files', { upload_status: 'CONFIRMED' }).expect(200)).body)).not.toContain(loose.file_id);
    expect((await get('/v1/files', { product_id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' }).expect(200)).body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await get('/v1/files', { upload_status: 'pending' }).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
  });

  it('applies every entitlement filter, alone and together, and names the product in list items', async () => {
    const dataSource = testApp.app.get(DataSource);
    const book = await createProduct({ name: 'Filtered book' });
    const course = await createProduct({ name: 'Filtered course' });
    const grant = async (storeCustomerId: string, productId: string) =>
      (await testApp.http.post('/v1/entitlements').set(key()).send({ store_customer_id: storeCustomerId, product_id: productId }).expect(201)).body.data;
    const a = await grant('filter_a', book.id);
    const b = await grant('filter_a', course.id);
    const c = await grant('filter_b', book.id);
    // A manual grant (a dashboard session's) and one granted "last year", for the source and date filters.
    await dataSource.query(`UPDATE entitlements SET source = 'manual' WHERE id = $1`, [b.id]);
    await dataSource.query(`UPDATE entitlements SET granted_at = '2025-01-15T00:00:00Z' WHERE id = $1`, [c.id]);
    await testApp.http.post(`/v1/entitlements/${a.id}/revoke`).set(key()).send({}).expect(200);

    const listed = await get('/v1/entitlements', { customer_id: a.customer_id }).expect(200);
    expect(listed.body.data.map((item: { id: string; product_name: string }) => [item.id, item.product_name])).toEqual([
      [b.id, 'Filtered course'],
      [a.id, 'Filtered book'],
    ]);
    expect(ids((await get('/v1/entitlements', { store_customer_id: 'filter_b' }).expect(200)).body)).toEqual([c.id]);
    expect(await allPages('/v1/entitlements', { product_id: book.id })).toEqual([c.id, a.id]);
    expect(ids((await get('/v1/entitlements', { product_id: book.id, status: 'REVOKED' }).expect(200)).body)).toEqual([a.id]);
    expect(ids((await get('/v1/entitlements', { product_id: book.id, status: 'active' }).expect(200)).body)).toEqual([c.id]);
    expect(ids((await get('/v1/entitlements', { customer_id: a.customer_id, source: 'MANUAL' }).expect(200)).body)).toEqual([b.id]);
    expect(ids((await get('/v1/entitlements', { product_id: book.id, granted_before: '2026-01-01T00:00:00Z' }).expect(200)).body)).toEqual([c.id]);
    expect(ids((await get('/v1/entitlements', { product_id: book.id, granted_after: '2026-01-01T00:00:00Z' }).expect(200)).body)).toEqual([a.id]);
    expect(ids((await get('/v1/entitlements', { source: 'bundle', product_id: book.id }).expect(200)).body)).toEqual([]);

    const customerList = await get(`/v1/customers/${a.customer_id}/entitlements`).expect(200);
    expect(customerList.body.data.map((item: { product_name: string }) => item.product_name)).toEqual(['Filtered course', 'Filtered book']);
    // The name as it is now: a renamed product reads renamed in the lists.
    await testApp.http.patch(`/v1/products/${course.id}`).set(key()).send({ name: 'Renamed course' }).expect(200);
    expect((await get(`/v1/customers/store/filter_a/entitlements`).expect(200)).body.data[0].product_name).toBe('Renamed course');
  });
});
