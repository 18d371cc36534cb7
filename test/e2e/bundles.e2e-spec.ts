import { EntitlementExpirySweeper } from '../../src/entitlements/entitlement-expiry.sweeper';
import { controlClock, countEvents, ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

describe('bundles: included products granted as children that follow their parent (DESIGN §10)', () => {
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

  async function createProduct(body: Record<string, unknown>, apiKey = tenant.testKey): Promise<string> {
    const response = await testApp.http
      .post('/v1/products')
      .set(bearer(apiKey))
      .send({ entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' }, ...body });
    if (response.status !== 201) throw new Error(`product create failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data.id;
  }

  async function bundleOfThree(): Promise<{ bundleId: string; includedIds: string[] }> {
    const includedIds = [
      await createProduct({ name: 'Ebook' }),
      await createProduct({ name: 'Audio', entitlement_type: 'usage_limited', usage_limit: 3 }),
      await createProduct({ name: 'Videos' }),
    ];
    const bundleId = await createProduct({ name: 'Complete edition', included_product_ids: includedIds });
    return { bundleId, includedIds };
  }

  async function childrenOf(parentId: string, customerId: string): Promise<Array<Record<string, unknown> & { id: string }>> {
    const listed = await testApp.http.get(`/v1/entitlements?customer_id=${customerId}&source=BUNDLE&limit=100`).set(key()).expect(200);
    const ids: string[] = listed.body.data.map((row: { id: string }) => row.id);
    const full = await Promise.all(ids.map(async (id) => (await testApp.http.get(`/v1/entitlements/${id}`).set(key()).expect(200)).body.data));
    return full.filter((row) => row.parent_entitlement_id === parentId);
  }

  it('stores included_product_ids in order and shows them in the single read, not in the list', async () => {
    const { bundleId, includedIds } = await bundleOfThree();
    const read = await testApp.http.get(`/v1/products/${bundleId}`).set(key()).expect(200);
    expect(read.body.data.included_product_ids).toEqual(includedIds);
    const reordered = [includedIds[2], includedIds[0]];
    const patched = await testApp.http.patch(`/v1/products/${bundleId}`).set(key()).send({ included_product_ids: reordered }).expect(200);
    expect(patched.body.data.included_product_ids).toEqual(reordered);
    const plain = await testApp.http.get(`/v1/products/${includedIds[1]}`).set(key()).expect(200);
    expect(plain.body.data.included_product_ids).toEqual([]);
    const list = await testApp.http.get('/v1/products?limit=1').set(key()).expect(200);
    expect(list.body.data[0]).not.toHaveProperty('included_product_ids');
  });

  it('refuses itself, unknown, archived, bundles, and other merchants’ or the other mode’s products', async () => {
    const { bundleId, includedIds } = await bundleOfThree();
    const archived = await createProduct({ name: 'Old' });
    await testApp.http.delete(`/v1/products/${archived}`).set(key()).expect(200);
    const othersProduct = await createProduct({ name: 'Theirs' }, other.testKey);
    const liveProduct = await createProduct({ name: 'Live' }, tenant.liveKey);
    const refusals: Array<[string, string[], string]> = [
      [bundleId, [bundleId], 'itself'],
      [bundleId, ['prod_nope'], "no product with id 'prod_nope'"],
      [bundleId, [archived], 'archived'],
      [bundleId, [othersProduct], `no product with id '${othersProduct}'`],
      [bundleId, [liveProduct], `no product with id '${liveProduct}'`],
      [includedIds[0], [includedIds[1]], 'is included in a bundle'],
    ];
    for (const [target, ids, message] of refusals) {
      const response = await testApp.http.patch(`/v1/products/${target}`).set(key()).send({ included_product_ids: ids }).expect(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'included_product_ids' });
      expect(response.body.error.message).toContain(message);
    }
    const nested = await testApp.http
      .post('/v1/products')
      .set(key())
      .send({ name: 'Nested', entitlement_type: 'permanent', included_product_ids: [bundleId] })
      .expect(400);
    expect(nested.body.error.message).toContain('bundles cannot be included');
    const tooMany = await testApp.http
      .post('/v1/products')
      .set(key())
      .send({ name: 'Big', entitlement_type: 'permanent', included_product_ids: Array.from({ length: 51 }, (_, index) => `prod_${index}`) })
      .expect(400);
    expect(tooMany.body.error.param).toBe('included_product_ids');
  });

  it('a bundle of three: children granted with the parent, the check says bundle, suspend/reactivate/revoke cascade, a child alone is refused', async () => {
    const { bundleId, includedIds } = await bundleOfThree();
    const parent = await grant(testApp, tenant.testKey, { store_customer_id: 'bundle_buyer', product_id: bundleId });
    const customerId = parent.customer_id as string;
    const children = await childrenOf(parent.id, customerId);
    expect(children.map((child) => child.product_id).sort()).toEqual([...includedIds].sort());
    for (const child of children) {
      expect(child).toMatchObject({ source: 'bundle', status: 'active', expires_at: null, parent_entitlement_id: parent.id, customer_id: customerId });
      expect(child.usage_limit).toBe(child.product_id === includedIds[1] ? 3 : null);
      expect(await countEvents(testApp, 'entitlement.created', child.id)).toBe(1);
    }

    const check = (productId: string) => testApp.http.get(`/v1/entitlements/check?customer_id=${customerId}&product_id=${productId}`).set(key()).expect(200);
    expect((await check(includedIds[0])).body.data.entitlement).toMatchObject({ access_type: 'bundle' });
    expect((await check(bundleId)).body.data.entitlement).toMatchObject({ access_type: 'direct', id: parent.id });

    const child = children[0];
    const refused = await testApp.http.post(`/v1/entitlements/${child.id}/suspend`).set(key()).send({}).expect(409);
    expect(refused.body.error.code).toBe('MANAGED_BY_PARENT');
    expect(refused.body.error.message).toContain(parent.id);
    for (const operation of ['revoke', 'reactivate', 'activate']) {
      expect((await testApp.http.post(`/v1/entitlements/${child.id}/${operation}`).set(key()).send({}).expect(409)).body.error.code).toBe('MANAGED_BY_PARENT');
    }
    expect((await testApp.http.patch(`/v1/entitlements/${child.id}`).set(key()).send({ metadata: {} }).expect(409)).body.error.code).toBe('MANAGED_BY_PARENT');

    await testApp.http.post(`/v1/entitlements/${parent.id}/suspend`).set(key()).send({ reason: 'chargeback' }).expect(200);
    for (const row of await childrenOf(parent.id, customerId)) {
      expect(row).toMatchObject({ status: 'suspended', suspension_reason: 'chargeback' });
      expect(await countEvents(testApp, 'entitlement.suspended', row.id)).toBe(1);
    }
    expect((await check(includedIds[0])).body.data.entitled).toBe(false);

    await testApp.http.post(`/v1/entitlements/${parent.id}/reactivate`).set(key()).send({}).expect(200);
    for (const row of await childrenOf(parent.id, customerId)) {
      expect(row.status).toBe('active');
      expect(await countEvents(testApp, 'entitlement.reactivated', row.id)).toBe(1);
    }
    expect((await check(includedIds[2])).body.data.entitlement).toMatchObject({ access_type: 'bundle' });

    await testApp.http.post(`/v1/entitlements/${parent.id}/revoke`).set(key()).send({ reason: 'refunded' }).expect(200);
    for (const row of await childrenOf(parent.id, customerId)) {
      expect(row).toMatchObject({ status: 'revoked', revocation_reason: 'refunded' });
      expect(await countEvents(testApp, 'entitlement.revoked', row.id)).toBe(1);
    }
    expect((await check(includedIds[1])).body.data.entitled).toBe(false);
  });

  it('a pending bundle: children are pending and activate with it; a later change of the bundle affects later grants only', async () => {
    const { bundleId, includedIds } = await bundleOfThree();
    const parent = await grant(testApp, tenant.testKey, { store_customer_id: 'pending_buyer', product_id: bundleId, status: 'pending' });
    const customerId = parent.customer_id as string;
    expect((await childrenOf(parent.id, customerId)).map((row) => row.status)).toEqual(['pending', 'pending', 'pending']);
    await testApp.http.patch(`/v1/products/${bundleId}`).set(key()).send({ included_product_ids: [includedIds[0]] }).expect(200);
    await testApp.http.post(`/v1/entitlements/${parent.id}/activate`).set(key()).send({}).expect(200);
    const children = await childrenOf(parent.id, customerId);
    expect(children.map((row) => row.status)).toEqual(['active', 'active', 'active']);
    for (const row of children) expect(await countEvents(testApp, 'entitlement.activated', row.id)).toBe(1);
    const later = await grant(testApp, tenant.testKey, { customer_id: customerId, product_id: bundleId });
    expect((await childrenOf(later.id, customerId)).map((row) => row.product_id)).toEqual([includedIds[0]]);
  });

  it('time-limited bundle: children carry the parent’s expiry, expire with it, and the sweeper publishes each once', async () => {
    const clock = controlClock(testApp);
    try {
      const included = await insertProduct(testApp, tenant.merchantId, 'test');
      const bundleId = await createProduct({ name: 'Season pass', entitlement_type: 'time_limited', access_duration_days: 30, included_product_ids: [included.id] });
      const parent = await grant(testApp, tenant.testKey, { store_customer_id: 'season_buyer', product_id: bundleId });
      const [child] = await childrenOf(parent.id, parent.customer_id as string);
      expect(child.expires_at).toBe(parent.expires_at);
      const later = new Date(clock.now().getTime() + 60 * DAY).toISOString();
      await testApp.http.patch(`/v1/entitlements/${parent.id}`).set(key()).send({ expires_at: later }).expect(200);
      expect((await testApp.http.get(`/v1/entitlements/${child.id}`).set(key()).expect(200)).body.data.expires_at).toBe(later);

      clock.set(new Date(later));
      const sweeper = testApp.app.get(EntitlementExpirySweeper);
      await sweeper.sweep();
      await sweeper.sweep();
      expect(await countEvents(testApp, 'entitlement.expired', parent.id)).toBe(1);
      expect(await countEvents(testApp, 'entitlement.expired', child.id)).toBe(1);
      expect((await testApp.http.get(`/v1/entitlements/${child.id}`).set(key()).expect(200)).body.data.status).toBe('expired');
    } finally {
      clock.release();
    }
  });

  it('usage-limited bundle: the sweeper expires the children of a parent whose uses ran out', async () => {
    const included = await insertProduct(testApp, tenant.merchantId, 'test');
    const bundleId = await createProduct({ name: 'Two sessions', entitlement_type: 'usage_limited', usage_limit: 1, included_product_ids: [included.id] });
    const parent = await grant(testApp, tenant.testKey, { store_customer_id: 'session_buyer', product_id: bundleId });
    await testApp.http.post(`/v1/entitlements/${parent.id}/usage`).set(key()).send({ quantity: 1 }).expect(200);
    await testApp.app.get(EntitlementExpirySweeper).sweep();
    const [child] = await childrenOf(parent.id, parent.customer_id as string);
    expect(child.status).toBe('expired');
    expect(await countEvents(testApp, 'entitlement.expired', child.id)).toBe(1);
  });
});
