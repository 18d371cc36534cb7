import { DataSource } from 'typeorm';
import type { ApiMode } from '../../src/database/tenant';
import { generateId } from '../../src/ids/id';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

interface EventRow {
  type: string;
  data: { object: Record<string, unknown> };
}

describe('products (write side)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let sequence = 0;

  const uniqueStoreId = () => `sku_${Date.now()}_${(sequence += 1)}`;
  const dataSource = () => testApp.app.get(DataSource);

  async function insertFile(merchantId: string, mode: ApiMode): Promise<string> {
    const id = generateId('file');
    await dataSource().query(
      `INSERT INTO files (id, merchant_id, mode, file_name, file_size, mime_type, object_key, upload_expires_at)
       VALUES ($1, $2, $3, 'book.pdf', 1024, 'application/pdf', $4, now() + interval '1 hour')`,
      [id, merchantId, mode, `${merchantId}/${mode}/${id}`],
    );
    return id;
  }

  async function eventsFor(productId: string): Promise<EventRow[]> {
    return dataSource().query(`SELECT type, data FROM events WHERE data->'object'->>'id' = $1 ORDER BY created_at, id`, [productId]);
  }

  const post = (key: string, body: object) => testApp.http.post('/v1/products').set(bearer(key)).send(body);

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  describe('create', () => {
    it('refuses a blank name on create and update, and stores names trimmed', async () => {
    for (const name of ['', ' ', '  \t\n ']) {
      const refused = await post(tenant.testKey, { name, entitlement_type: 'permanent' }).expect(400);
      expect(refused.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'name' });
      expect(refused.body.error.message).toContain('must not be blank');
    }
    const created = await post(tenant.testKey, { name: '  The Field Guide  ', entitlement_type: 'permanent' }).expect(201);
    expect(created.body.data.name).toBe('The Field Guide');
    const patched = (value: string) => testApp.http.patch(`/v1/products/${created.body.data.id}`).set(bearer(tenant.testKey)).send({ name: value });
    expect((await patched('   ').expect(400)).body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'name' });
    expect((await patched(' Second edition ').expect(200)).body.data.name).toBe('Second edition');
    expect((await testApp.http.get(`/v1/products/${created.body.data.id}`).set(bearer(tenant.testKey)).expect(200)).body.data.name).toBe('Second edition');
  });

  it('creates each entitlement type with its field, in the full shape, and records product.created', async () => {
      const cases = [
        { entitlement_type: 'permanent', access_duration_days: null, usage_limit: null },
        { entitlement_type: 'time_limited', access_duration_days: 30, usage_limit: null },
        { entitlement_type: 'usage_limited', access_duration_days: null, usage_limit: 5 },
        { entitlement_type: 'subscription_linked', access_duration_days: null, usage_limit: null },
      ];
      for (const fields of cases) {
        const body = Object.fromEntries(Object.entries({ name: `A ${fields.entitlement_type}`, ...fields }).filter(([, value]) => value !== null));
        const response = await post(tenant.testKey, body).expect(201);
        const product = response.body.data;
        expect(product).toEqual({
          id: expect.stringMatching(/^prod_/),
          store_product_id: null,
          store_variant_ids: [],
          included_product_ids: [],
          license: null,
          name: `A ${fields.entitlement_type}`,
          description: '',
          ...fields,
          metadata: {},
          fulfillment_config: { delivery_method: 'FILE', file_ids: [], access_url: null, access_instructions: null },
          status: 'active',
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          updated_at: expect.stringMatching(/Z$/),
        });
        const read = await testApp.http.get(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
        expect(read.body.data).toEqual(product);
        const events = await eventsFor(product.id);
        expect(events).toEqual([{ type: 'product.created', data: { object: product } }]);
      }
    });

    it('accepts every optional field and each delivery method', async () => {
      const fileId = await insertFile(tenant.merchantId, 'test');
      const full = await post(tenant.testKey, {
        name: 'Full',
        entitlement_type: 'permanent',
        description: 'Everything',
        store_product_id: uniqueStoreId(),
        store_variant_ids: ['v1', 'v2'],
        metadata: { nested: { a: [1, 2] } },
        fulfillment_config: { delivery_method: 'FILE', file_ids: [fileId, fileId], access_url: null, access_instructions: null },
      }).expect(201);
      expect(full.body.data).toMatchObject({
        description: 'Everything',
        store_variant_ids: ['v1', 'v2'],
        metadata: { nested: { a: [1, 2] } },
        fulfillment_config: { delivery_method: 'FILE', file_ids: [fileId] },
      });
      const url = await post(tenant.testKey, {
        name: 'Course',
        entitlement_type: 'permanent',
        fulfillment_config: { delivery_method: 'URL', access_url: 'https://course.example.com/start' },
      }).expect(201);
      expect(url.body.data.fulfillment_config).toEqual({
        delivery_method: 'URL',
        file_ids: [],
        access_url: 'https://course.example.com/start',
        access_instructions: null,
      });
      const instructions = await post(tenant.testKey, {
        name: 'Licence',
        entitlement_type: 'permanent',
        fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Redeem at example.com' },
      }).expect(201);
      expect(instructions.body.data.fulfillment_config.access_instructions).toBe('Redeem at example.com');
    });

    it.each([
      ['missing name', { entitlement_type: 'permanent' }, 'MISSING_REQUIRED_FIELD', 'name'],
      ['null name', { name: null, entitlement_type: 'permanent' }, 'MISSING_REQUIRED_FIELD', 'name'],
      ['empty name', { name: '', entitlement_type: 'permanent' }, 'INVALID_PARAMETER', 'name'],
      ['missing entitlement_type', { name: 'X' }, 'MISSING_REQUIRED_FIELD', 'entitlement_type'],
      ['unknown entitlement_type', { name: 'X', entitlement_type: 'forever' }, 'INVALID_PARAMETER', 'entitlement_type'],
      ['time_limited without access_duration_days', { name: 'X', entitlement_type: 'time_limited' }, 'MISSING_REQUIRED_FIELD', 'access_duration_days'],
      ['access_duration_days 0', { name: 'X', entitlement_type: 'time_limited', access_duration_days: 0 }, 'INVALID_PARAMETER', 'access_duration_days'],
      ['access_duration_days not an integer', { name: 'X', entitlement_type: 'time_limited', access_duration_days: 1.5 }, 'INVALID_PARAMETER', 'access_duration_days'],
      ['access_duration_days as a string', { name: 'X', entitlement_type: 'time_limited', access_duration_days: '30' }, 'INVALID_PARAMETER', 'access_duration_days'],
      ['access_duration_days on a permanent product', { name: 'X', entitlement_type: 'permanent', access_duration_days: 30 }, 'INVALID_PARAMETER', 'access_duration_days'],
      ['usage_limited without usage_limit', { name: 'X', entitlement_type: 'usage_limited' }, 'MISSING_REQUIRED_FIELD', 'usage_limit'],
      ['usage_limit 0', { name: 'X', entitlement_type: 'usage_limited', usage_limit: 0 }, 'INVALID_PARAMETER', 'usage_limit'],
      ['usage_limit on a time_limited product', { name: 'X', entitlement_type: 'time_limited', access_duration_days: 3, usage_limit: 2 }, 'INVALID_PARAMETER', 'usage_limit'],
      ['unknown field', { name: 'X', entitlement_type: 'permanent', colour: 'red' }, 'INVALID_PARAMETER', 'colour'],
      ['metadata an array', { name: 'X', entitlement_type: 'permanent', metadata: [1] }, 'INVALID_PARAMETER', 'metadata'],
      ['metadata a string', { name: 'X', entitlement_type: 'permanent', metadata: 'x' }, 'INVALID_PARAMETER', 'metadata'],
      ['metadata over 16 KiB', { name: 'X', entitlement_type: 'permanent', metadata: { blob: 'x'.repeat(16 * 1024) } }, 'INVALID_PARAMETER', 'metadata'],
      ['store_variant_ids not strings', { name: 'X', entitlement_type: 'permanent', store_variant_ids: [1] }, 'INVALID_PARAMETER', 'store_variant_ids'],
      ['fulfillment_config not an object', { name: 'X', entitlement_type: 'permanent', fulfillment_config: 'FILE' }, 'INVALID_PARAMETER', 'fulfillment_config'],
      ['missing delivery_method', { name: 'X', entitlement_type: 'permanent', fulfillment_config: {} }, 'MISSING_REQUIRED_FIELD', 'fulfillment_config.delivery_method'],
      ['bad delivery_method', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'EMAIL' } }, 'INVALID_PARAMETER', 'fulfillment_config.delivery_method'],
      ['unknown fulfillment field', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'FILE', extra: 1 } }, 'INVALID_PARAMETER', 'fulfillment_config.extra'],
      ['URL without access_url', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL' } }, 'MISSING_REQUIRED_FIELD', 'fulfillment_config.access_url'],
      ['http access_url', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'http://example.com' } }, 'INVALID_PARAMETER', 'fulfillment_config.access_url'],
      ['relative access_url', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: '/start' } }, 'INVALID_PARAMETER', 'fulfillment_config.access_url'],
      ['access_url with FILE', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'FILE', access_url: 'https://example.com' } }, 'INVALID_PARAMETER', 'fulfillment_config.access_url'],
      ['INSTRUCTIONS without text', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'INSTRUCTIONS' } }, 'MISSING_REQUIRED_FIELD', 'fulfillment_config.access_instructions'],
      ['INSTRUCTIONS with blank text', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: '  ' } }, 'INVALID_PARAMETER', 'fulfillment_config.access_instructions'],
      ['file_ids with URL', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'URL', access_url: 'https://a.example', file_ids: ['file_01jd8x3k2m4n5p6q7r8s9t0v1w'] } }, 'INVALID_PARAMETER', 'fulfillment_config.file_ids'],
      ['malformed file id', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'FILE', file_ids: ['nope'] } }, 'INVALID_PARAMETER', 'fulfillment_config.file_ids'],
      ['unknown file id', { name: 'X', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'FILE', file_ids: [generateId('file')] } }, 'INVALID_PARAMETER', 'fulfillment_config.file_ids'],
    ])('refuses %s', async (_name, body, code, param) => {
      const response = await post(tenant.testKey, body).expect(400);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
      expect(response.body.error.message).toContain(param.split('.').pop());
    });

    it("refuses another merchant's and the other mode's file ids", async () => {
      const othersFile = await insertFile(other.merchantId, 'test');
      const liveFile = await insertFile(tenant.merchantId, 'live');
      const ownFile = await insertFile(tenant.merchantId, 'test');
      for (const foreign of [othersFile, liveFile]) {
        const response = await post(tenant.testKey, {
          name: 'X',
          entitlement_type: 'permanent',
          fulfillment_config: { delivery_method: 'FILE', file_ids: [ownFile, foreign] },
        }).expect(400);
        expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'fulfillment_config.file_ids' });
        expect(response.body.error.message).toContain(foreign);
        expect(response.body.error.message).not.toContain(ownFile);
      }
    });

    it('refuses a second product with one store_product_id (409 DUPLICATE_STORE_ID), per merchant and mode', async () => {
      const storeId = uniqueStoreId();
      await post(tenant.testKey, { name: 'First', entitlement_type: 'permanent', store_product_id: storeId }).expect(201);
      const duplicate = await post(tenant.testKey, { name: 'Second', entitlement_type: 'permanent', store_product_id: storeId }).expect(409);
      expect(duplicate.body.error).toMatchObject({ type: 'conflict_error', code: 'DUPLICATE_STORE_ID', param: 'store_product_id' });
      expect(duplicate.body.error.message).toContain(storeId);
      // The same store id is free in the other mode and for another merchant.
      await post(tenant.liveKey, { name: 'Live', entitlement_type: 'permanent', store_product_id: storeId }).expect(201);
      await post(other.testKey, { name: 'Other', entitlement_type: 'permanent', store_product_id: storeId }).expect(201);
    });

    it('lets exactly one of 20 concurrent creates with one store_product_id succeed', async () => {
      const storeId = uniqueStoreId();
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) => post(tenant.testKey, { name: `Racer ${index}`, entitlement_type: 'permanent', store_product_id: storeId })),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, ...Array(19).fill(409)]);
      for (const response of responses.filter((item) => item.status === 409)) expect(response.body.error.code).toBe('DUPLICATE_STORE_ID');
      const [{ count }] = await dataSource().query(
        'SELECT count(*)::int AS count FROM products WHERE merchant_id = $1 AND mode = $2 AND store_product_id = $3',
        [tenant.merchantId, 'test', storeId],
      );
      expect(count).toBe(1);
      const [{ events }] = await dataSource().query(
        `SELECT count(*)::int AS events FROM events WHERE merchant_id = $1 AND type = 'product.created' AND data->'object'->>'store_product_id' = $2`,
        [tenant.merchantId, storeId],
      );
      expect(events).toBe(1);
    });

    it('needs products:write', async () => {
      const readOnly = await testApp.createKey(tenant.merchantId, 'test', ['products:read']);
      const response = await post(readOnly, { name: 'X', entitlement_type: 'permanent' }).expect(403);
      expect(response.body.error.code).toBe('INSUFFICIENT_SCOPE');
      const product = (await post(tenant.testKey, { name: 'Y', entitlement_type: 'permanent' }).expect(201)).body.data;
      await testApp.http.patch(`/v1/products/${product.id}`).set(bearer(readOnly)).send({ name: 'Z' }).expect(403);
      await testApp.http.delete(`/v1/products/${product.id}`).set(bearer(readOnly)).expect(403);
    });
  });

  describe('update and archive', () => {
    async function createProduct(body: object = {}): Promise<Record<string, unknown> & { id: string }> {
      return (await post(tenant.testKey, { name: 'Original', entitlement_type: 'permanent', ...body }).expect(201)).body.data;
    }
    const patch = (id: string, body: object, key = tenant.testKey) => testApp.http.patch(`/v1/products/${id}`).set(bearer(key)).send(body);

    it('changes only the fields sent, replaces metadata, and records product.updated', async () => {
      const product = await createProduct({ description: 'Keep me', metadata: { a: 1, b: 2 } });
      const response = await patch(product.id, { name: 'Renamed', metadata: { c: 3 } }).expect(200);
      expect(response.body.data).toMatchObject({ id: product.id, name: 'Renamed', description: 'Keep me', metadata: { c: 3 }, created_at: product.created_at });
      expect(Date.parse(response.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(product.updated_at as string));
      const events = await eventsFor(product.id);
      expect(events.map((event) => event.type)).toEqual(['product.created', 'product.updated']);
      expect(events[1].data.object).toEqual(response.body.data);
    });

    it('records no event for a PATCH that changes nothing', async () => {
      const product = await createProduct();
      const response = await patch(product.id, { name: 'Original' }).expect(200);
      expect(response.body.data).toEqual(product);
      await patch(product.id, {}).expect(200);
      expect((await eventsFor(product.id)).map((event) => event.type)).toEqual(['product.created']);
    });

    it('checks type-dependent fields on the result of the PATCH', async () => {
      const product = await createProduct({ entitlement_type: 'time_limited', access_duration_days: 30 });
      const missing = await patch(product.id, { access_duration_days: null }).expect(400);
      expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'access_duration_days' });
      const toUsage = await patch(product.id, { entitlement_type: 'usage_limited' }).expect(400);
      expect(toUsage.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'usage_limit' });
      const changed = await patch(product.id, { entitlement_type: 'usage_limited', usage_limit: 3 }).expect(200);
      // The old type's field is cleared with the type change.
      expect(changed.body.data).toMatchObject({ entitlement_type: 'usage_limited', usage_limit: 3, access_duration_days: null });
      const wrong = await patch(product.id, { access_duration_days: 5 }).expect(400);
      expect(wrong.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'access_duration_days' });
      const kept = await patch(product.id, { name: 'Still usage' }).expect(200);
      expect(kept.body.data.usage_limit).toBe(3);
    });

    it('replaces fulfillment_config, checks it, and refuses null for non-nullable fields', async () => {
      const product = await createProduct();
      const fileId = await insertFile(tenant.merchantId, 'test');
      const withFile = await patch(product.id, { fulfillment_config: { delivery_method: 'FILE', file_ids: [fileId] } }).expect(200);
      expect(withFile.body.data.fulfillment_config.file_ids).toEqual([fileId]);
      const http = await patch(product.id, { fulfillment_config: { delivery_method: 'URL', access_url: 'http://x.example' } }).expect(400);
      expect(http.body.error.param).toBe('fulfillment_config.access_url');
      const foreign = await patch(product.id, { fulfillment_config: { delivery_method: 'FILE', file_ids: [await insertFile(other.merchantId, 'test')] } }).expect(400);
      expect(foreign.body.error.param).toBe('fulfillment_config.file_ids');
      for (const field of ['name', 'entitlement_type', 'metadata', 'fulfillment_config', 'store_variant_ids', 'status']) {
        const response = await patch(product.id, { [field]: null }).expect(400);
        expect(response.body.error.param).toBe(field);
      }
      await patch(product.id, { unknown: 1 }).expect(400);
      const read = await testApp.http.get(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
      expect(read.body.data.fulfillment_config.file_ids).toEqual([fileId]);
    });

    it('sets, clears and guards store_product_id on PATCH', async () => {
      const takenId = uniqueStoreId();
      await createProduct({ store_product_id: takenId });
      const product = await createProduct();
      const duplicate = await patch(product.id, { store_product_id: takenId }).expect(409);
      expect(duplicate.body.error.code).toBe('DUPLICATE_STORE_ID');
      const freeId = uniqueStoreId();
      expect((await patch(product.id, { store_product_id: freeId }).expect(200)).body.data.store_product_id).toBe(freeId);
      expect((await patch(product.id, { store_product_id: null }).expect(200)).body.data.store_product_id).toBeNull();
    });

    it('archives on DELETE (200 with the product), idempotently, and still allows PATCH and un-archiving', async () => {
      const product = await createProduct();
      const archived = await testApp.http.delete(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
      expect(archived.body.data).toMatchObject({ id: product.id, status: 'archived' });
      const again = await testApp.http.delete(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
      expect(again.body.data.status).toBe('archived');
      const listed = await testApp.http.get('/v1/products?limit=100').set(bearer(tenant.testKey)).expect(200);
      expect(listed.body.data.find((item: { id: string }) => item.id === product.id).status).toBe('archived');
      const renamed = await patch(product.id, { name: 'Renamed while archived' }).expect(200);
      expect(renamed.body.data).toMatchObject({ status: 'archived', name: 'Renamed while archived' });
      const restored = await patch(product.id, { status: 'active' }).expect(200);
      expect(restored.body.data.status).toBe('active');
      const events = await eventsFor(product.id);
      expect(events.map((event) => [event.type, event.data.object.status])).toEqual([
        ['product.created', 'active'],
        ['product.updated', 'archived'],
        ['product.updated', 'archived'],
        ['product.updated', 'active'],
      ]);
    });

    it('refuses new grants of an archived product (409 PRODUCT_ARCHIVED) while existing ones keep working', async () => {
      const product = await createProduct();
      const grant = (customer: string) =>
        testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ store_customer_id: customer, product_id: product.id });
      const customer = `cust_${uniqueStoreId()}`;
      await grant(customer).expect(201);
      await testApp.http.delete(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
      const refused = await grant(`${customer}_new`).expect(409);
      expect(refused.body.error.code).toBe('PRODUCT_ARCHIVED');
      const check = await testApp.http
        .get(`/v1/entitlements/check?store_customer_id=${customer}&product_id=${product.id}`)
        .set(bearer(tenant.testKey))
        .expect(200);
      expect(check.body.data.entitled).toBe(true);
      await patch(product.id, { status: 'active' }).expect(200);
      await grant(`${customer}_new`).expect(201);
    });

    it("answers 404 PRODUCT_NOT_FOUND for another merchant's, the other mode's, unknown and malformed ids", async () => {
      const product = await createProduct();
      const attempts: Array<[string, string]> = [
        [other.testKey, product.id],
        [tenant.liveKey, product.id],
        [tenant.testKey, generateId('prod')],
        [tenant.testKey, 'not-an-id'],
      ];
      for (const [key, id] of attempts) {
        const patched = await patch(id, { name: 'Hijack' }, key).expect(404);
        expect(patched.body.error.code).toBe('PRODUCT_NOT_FOUND');
        const deleted = await testApp.http.delete(`/v1/products/${id}`).set(bearer(key)).expect(404);
        expect(deleted.body.error.code).toBe('PRODUCT_NOT_FOUND');
      }
      const read = await testApp.http.get(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
      expect(read.body.data).toMatchObject({ name: 'Original', status: 'active' });
      expect((await eventsFor(product.id)).map((event) => event.type)).toEqual(['product.created']);
    });
  });
});
