import { controlClock, ENTITLEMENT_TEST_OVERRIDES, grant, insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

describe('grant rules: a grant of the trigger product grants the rule’s product (DESIGN §10)', () => {
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

  const product = async (overrides: Parameters<typeof insertProduct>[3] = {}) => (await insertProduct(testApp, tenant.merchantId, 'test', overrides)).id;

  async function createRule(body: Record<string, unknown>): Promise<Record<string, unknown> & { id: string }> {
    const response = await testApp.http.post('/v1/grant-rules').set(key()).send(body);
    if (response.status !== 201) throw new Error(`rule create failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data;
  }

  async function entitlementsOf(customerId: string, source?: string): Promise<Array<Record<string, unknown>>> {
    const response = await testApp.http.get(`/v1/entitlements?customer_id=${customerId}${source ? `&source=${source}` : ''}&limit=100`).set(key()).expect(200);
    return response.body.data;
  }

  it('creates, reads, lists, updates and deletes rules', async () => {
    const [trigger, granted] = [await product(), await product()];
    const rule = await createRule({ trigger_product_id: trigger, grant_product_id: granted, access_duration_days: 30 });
    expect(rule).toEqual({
      id: expect.stringMatching(/^rule_/),
      trigger_product_id: trigger,
      grant_product_id: granted,
      access_duration_days: 30,
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await testApp.http.get(`/v1/grant-rules/${rule.id}`).set(key()).expect(200)).body.data).toEqual(rule);
    const list = await testApp.http.get('/v1/grant-rules?limit=1').set(key()).expect(200);
    expect(list.body.data[0].id).toBe(rule.id);
    expect(list.body.pagination.total).toBeGreaterThanOrEqual(1);
    const patched = await testApp.http.patch(`/v1/grant-rules/${rule.id}`).set(key()).send({ enabled: false, access_duration_days: null }).expect(200);
    expect(patched.body.data).toMatchObject({ enabled: false, access_duration_days: null });
    expect((await testApp.http.delete(`/v1/grant-rules/${rule.id}`).set(key()).expect(200)).body.data).toEqual({ id: rule.id, deleted: true });
    expect((await testApp.http.get(`/v1/grant-rules/${rule.id}`).set(key()).expect(404)).body.error.code).toBe('GRANT_RULE_NOT_FOUND');
    expect((await testApp.http.get('/v1/grant-rules/rule_nope').set(key()).expect(404)).body.error.code).toBe('GRANT_RULE_NOT_FOUND');
  });

  it('refuses unknown products, its own trigger, and bad fields', async () => {
    const trigger = await product();
    const unknown = await testApp.http.post('/v1/grant-rules').set(key()).send({ trigger_product_id: trigger, grant_product_id: 'prod_nope' }).expect(404);
    expect(unknown.body.error).toMatchObject({ code: 'PRODUCT_NOT_FOUND', param: 'grant_product_id' });
    const self = await testApp.http.post('/v1/grant-rules').set(key()).send({ trigger_product_id: trigger, grant_product_id: trigger }).expect(400);
    expect(self.body.error.code).toBe('INVALID_PARAMETER');
    expect((await testApp.http.post('/v1/grant-rules').set(key()).send({ trigger_product_id: trigger }).expect(400)).body.error.code).toBe('MISSING_REQUIRED_FIELD');
    const badDays = await testApp.http.post('/v1/grant-rules').set(key()).send({ trigger_product_id: trigger, grant_product_id: await product(), access_duration_days: 0 }).expect(400);
    expect(badDays.body.error.param).toBe('access_duration_days');
  });

  it('names products by store_product_id as well: exactly one of each pair, unknown store ids 404 naming the field', async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const [trigger, granted] = [`sku_trigger_${suffix}`, `sku_bonus_${suffix}`];
    const triggerId = await product({ store_product_id: trigger });
    const grantedId = await product({ store_product_id: granted });
    const rule = await createRule({ trigger_store_product_id: trigger, grant_store_product_id: granted, access_duration_days: 30 });
    expect(rule).toMatchObject({ trigger_product_id: triggerId, grant_product_id: grantedId, access_duration_days: 30 });
    // Mixed: an id for one, a store id for the other.
    expect(await createRule({ trigger_product_id: triggerId, grant_store_product_id: granted })).toMatchObject({ grant_product_id: grantedId });
    const post = (body: Record<string, unknown>, status: number) => testApp.http.post('/v1/grant-rules').set(key()).send(body).expect(status);
    expect((await post({ trigger_store_product_id: 'sku_nobody_sells', grant_product_id: grantedId }, 404)).body.error).toMatchObject({
      code: 'PRODUCT_NOT_FOUND',
      param: 'trigger_store_product_id',
    });
    expect((await post({ trigger_product_id: triggerId, trigger_store_product_id: trigger, grant_product_id: grantedId }, 400)).body.error).toMatchObject({
      code: 'MISSING_REQUIRED_FIELD',
      param: 'trigger_store_product_id',
    });
    expect((await post({ trigger_store_product_id: trigger }, 400)).body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'grant_product_id' });
    // The same product by id and by store id is still its own trigger.
    expect((await post({ trigger_product_id: triggerId, grant_store_product_id: trigger }, 400)).body.error).toMatchObject({
      code: 'INVALID_PARAMETER',
      param: 'grant_store_product_id',
    });
  });

  it('is isolated: another merchant and the other mode see 404, and can’t use this tenant’s products', async () => {
    const [trigger, granted] = [await product(), await product()];
    const rule = await createRule({ trigger_product_id: trigger, grant_product_id: granted });
    for (const apiKey of [other.testKey, tenant.liveKey]) {
      expect((await testApp.http.get(`/v1/grant-rules/${rule.id}`).set(bearer(apiKey)).expect(404)).body.error.code).toBe('GRANT_RULE_NOT_FOUND');
      await testApp.http.patch(`/v1/grant-rules/${rule.id}`).set(bearer(apiKey)).send({ enabled: false }).expect(404);
      await testApp.http.delete(`/v1/grant-rules/${rule.id}`).set(bearer(apiKey)).expect(404);
      const list = await testApp.http.get('/v1/grant-rules').set(bearer(apiKey)).expect(200);
      expect(list.body.data.map((row: { id: string }) => row.id)).not.toContain(rule.id);
      const create = await testApp.http.post('/v1/grant-rules').set(bearer(apiKey)).send({ trigger_product_id: trigger, grant_product_id: granted }).expect(404);
      expect(create.body.error.code).toBe('PRODUCT_NOT_FOUND');
    }
  });

  it('fires for api grants and bundle children, never for its own grants, skips a held product, and stops when disabled', async () => {
    const clock = controlClock(testApp);
    try {
      const [trigger, bonus, chained, included] = [await product(), await product(), await product(), await product()];
      await createRule({ trigger_product_id: trigger, grant_product_id: bonus, access_duration_days: 7 });
      // bonus → chained would chain: rule grants never fire rules.
      await createRule({ trigger_product_id: bonus, grant_product_id: chained });

      const direct = await grant(testApp, tenant.testKey, { store_customer_id: 'rule_api', product_id: trigger });
      const customerId = direct.customer_id as string;
      const ruled = await entitlementsOf(customerId, 'RULE');
      expect(ruled).toHaveLength(1);
      expect(ruled[0]).toMatchObject({ product_id: bonus, source: 'rule', status: 'active' });
      expect(new Date(ruled[0].expires_at as string).getTime()).toBe(clock.now().getTime() + 7 * DAY);
      expect((await entitlementsOf(customerId)).map((row) => row.product_id)).not.toContain(chained);

      // Already held (active): a second trigger grant grants no second bonus.
      await grant(testApp, tenant.testKey, { customer_id: customerId, product_id: trigger });
      expect(await entitlementsOf(customerId, 'rule')).toHaveLength(1);

      // A bundle child of the trigger product fires the rule too.
      const bundle = await testApp.http
        .post('/v1/products')
        .set(key())
        .send({ name: 'Bundle with trigger', entitlement_type: 'permanent', included_product_ids: [trigger, included] })
        .expect(201);
      const bundleBuyer = await grant(testApp, tenant.testKey, { store_customer_id: 'rule_bundle', product_id: bundle.body.data.id });
      const bundleRows = await entitlementsOf(bundleBuyer.customer_id as string);
      expect(bundleRows.filter((row) => row.source === 'bundle').map((row) => row.product_id).sort()).toEqual([trigger, included].sort());
      expect(bundleRows.filter((row) => row.source === 'rule').map((row) => row.product_id)).toEqual([bonus]);

      // A direct grant of the bonus (not by a rule) fires bonus → chained.
      const bonusBuyer = await grant(testApp, tenant.testKey, { store_customer_id: 'rule_bonus', product_id: bonus });
      expect((await entitlementsOf(bonusBuyer.customer_id as string, 'RULE')).map((row) => row.product_id)).toEqual([chained]);

      const rules = (await testApp.http.get('/v1/grant-rules?limit=100').set(key()).expect(200)).body.data as Array<{ id: string; trigger_product_id: string }>;
      for (const rule of rules.filter((row) => row.trigger_product_id === trigger)) {
        await testApp.http.patch(`/v1/grant-rules/${rule.id}`).set(key()).send({ enabled: false }).expect(200);
      }
      const later = await grant(testApp, tenant.testKey, { store_customer_id: 'rule_disabled', product_id: trigger });
      expect(await entitlementsOf(later.customer_id as string, 'RULE')).toHaveLength(0);
    } finally {
      clock.release();
    }
  });

  it('a revoked bonus does not count as held; an archived grant product is skipped without failing the trigger', async () => {
    const [trigger, bonus] = [await product(), await product()];
    await createRule({ trigger_product_id: trigger, grant_product_id: bonus });
    const first = await grant(testApp, tenant.testKey, { store_customer_id: 'rule_revoked', product_id: trigger });
    const customerId = first.customer_id as string;
    const [bonusRow] = await entitlementsOf(customerId, 'RULE');
    await testApp.http.post(`/v1/entitlements/${bonusRow.id as string}/revoke`).set(key()).send({}).expect(200);
    await grant(testApp, tenant.testKey, { customer_id: customerId, product_id: trigger });
    expect((await entitlementsOf(customerId, 'RULE')).map((row) => row.status).sort()).toEqual(['active', 'revoked']);

    await testApp.http.delete(`/v1/products/${bonus}`).set(key()).expect(200);
    const afterArchive = await grant(testApp, tenant.testKey, { store_customer_id: 'rule_archived', product_id: trigger });
    expect(await entitlementsOf(afterArchive.customer_id as string, 'RULE')).toHaveLength(0);
  });
});
