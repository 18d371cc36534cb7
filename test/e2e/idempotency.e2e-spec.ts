import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { Pruner } from '../../src/database/pruner';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { eventually } from '../support/eventually';
import { untilBlocked } from '../support/until-blocked';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

describe('idempotency (Idempotency-Key on POST /v1)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let sequence = 0;

  const newKey = () => `key-${Date.now()}-${(sequence += 1)}`;
  const dataSource = () => testApp.app.get(DataSource);
  const createProduct = (apiKey: string, idempotencyKey: string | null, body: object) => {
    const request = testApp.http.post('/v1/products').set(bearer(apiKey));
    if (idempotencyKey !== null) request.set('Idempotency-Key', idempotencyKey);
    return request.send(body);
  };
  const countProducts = async (merchantId: string, name: string): Promise<number> => {
    const [{ count }] = await dataSource().query('SELECT count(*)::int AS count FROM products WHERE merchant_id = $1 AND name = $2', [merchantId, name]);
    return count;
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  it('replays the first response (same status and enveloped body) with Idempotent-Replayed: true', async () => {
    const key = newKey();
    const name = `Replayed ${key}`;
    const first = await createProduct(tenant.testKey, key, { name, entitlement_type: 'permanent', metadata: { a: 1, b: 2 } }).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Same parameters in another key order and layout are the same request.
    const second = await testApp.http
      .post('/v1/products')
      .set(bearer(tenant.testKey))
      .set('Idempotency-Key', key)
      .set('Content-Type', 'application/json')
      .send(`{ "metadata": {"b": 2, "a": 1}, "entitlement_type": "permanent", "name": ${JSON.stringify(name)} }`)
      .expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    // Exactly the body the first client got, meta included (the stored body is the enveloped one).
    expect(second.text).toBe(first.text);
    expect(second.body.meta.request_id).toBe(first.headers['x-request-id']);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await countProducts(tenant.merchantId, name)).toBe(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_CONFLICT for the same key with other parameters', async () => {
    const key = newKey();
    await createProduct(tenant.testKey, key, { name: `Conflict ${key}`, entitlement_type: 'permanent' }).expect(201);
    const conflict = await createProduct(tenant.testKey, key, { name: `Conflict ${key} (changed)`, entitlement_type: 'permanent' }).expect(409);
    expect(conflict.body.error).toMatchObject({ type: 'conflict_error', code: 'IDEMPOTENCY_KEY_CONFLICT' });
    expect(conflict.body.error.message).toContain(key);
    expect(await countProducts(tenant.merchantId, `Conflict ${key} (changed)`)).toBe(0);
  });

  it('creates exactly one product for 20 concurrent requests with one key, all answered with it', async () => {
    const key = newKey();
    const name = `Concurrent ${key}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => createProduct(tenant.testKey, key, { name, entitlement_type: 'usage_limited', usage_limit: 3 })),
    );
    // Waiting requests replay the first one's response; a 409 (still in progress after 10 s) is allowed but not expected.
    const created = responses.filter((response) => response.status === 201);
    for (const response of responses.filter((item) => item.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');
    }
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.text)).size).toBe(1);
    expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await countProducts(tenant.merchantId, name)).toBe(1);
    const [{ events }] = await dataSource().query(
      `SELECT count(*)::int AS events FROM events WHERE merchant_id = $1 AND type = 'product.created' AND data->'object'->>'name' = $2`,
      [tenant.merchantId, name],
    );
    expect(events).toBe(1);
  });

  it('scopes keys to the merchant and the mode', async () => {
    const key = newKey();
    const name = `Scoped ${key}`;
    const body = { name, entitlement_type: 'permanent' };
    const testMode = await createProduct(tenant.testKey, key, body).expect(201);
    const liveMode = await createProduct(tenant.liveKey, key, body).expect(201);
    const otherMerchant = await createProduct(other.testKey, key, body).expect(201);
    for (const response of [liveMode, otherMerchant]) {
      expect(response.headers['idempotent-replayed']).toBeUndefined();
      expect(response.body.data.id).not.toBe(testMode.body.data.id);
    }
    expect(await countProducts(tenant.merchantId, name)).toBe(2);
    expect(await countProducts(other.merchantId, name)).toBe(1);
  });

  it('refuses a key longer than 255 characters or empty (400 INVALID_PARAMETER), accepts 255', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const response = await createProduct(tenant.testKey, key, { name: 'Too long key', entitlement_type: 'permanent' }).expect(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'Idempotency-Key' });
    }
    expect(await countProducts(tenant.merchantId, 'Too long key')).toBe(0);
    const longest = `${newKey()}-`.padEnd(255, 'x');
    await createProduct(tenant.testKey, longest, { name: 'Longest key', entitlement_type: 'permanent' }).expect(201);
    const replay = await createProduct(tenant.testKey, longest, { name: 'Longest key', entitlement_type: 'permanent' }).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('does not store error responses: a corrected retry with the same key runs', async () => {
    const key = newKey();
    const invalid = await createProduct(tenant.testKey, key, { entitlement_type: 'permanent' }).expect(400);
    expect(invalid.body.error.code).toBe('MISSING_REQUIRED_FIELD');
    const fixed = await createProduct(tenant.testKey, key, { name: `Fixed ${key}`, entitlement_type: 'permanent' }).expect(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    const replay = await createProduct(tenant.testKey, key, { name: `Fixed ${key}`, entitlement_type: 'permanent' }).expect(201);
    expect(replay.body).toEqual(fixed.body);
  });

  it('ignores the header on non-POST requests and does not need it on POST', async () => {
    const key = newKey();
    const product = (await createProduct(tenant.testKey, null, { name: `Keyless ${key}`, entitlement_type: 'permanent' }).expect(201)).body.data;
    await createProduct(tenant.testKey, null, { name: `Keyless ${key}`, entitlement_type: 'permanent' }).expect(201);
    expect(await countProducts(tenant.merchantId, `Keyless ${key}`)).toBe(2);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await testApp.http
        .patch(`/v1/products/${product.id}`)
        .set(bearer(tenant.testKey))
        .set('Idempotency-Key', key)
        .send({ name: `Patched ${attempt}` })
        .expect(200);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
      expect(response.body.data.name).toBe(`Patched ${attempt}`);
    }
  });

  it('keeps keys at least 24 h and prunes them afterwards (injected clock)', async () => {
    const key = newKey();
    const body = { name: `Pruned ${key}`, entitlement_type: 'permanent' };
    await createProduct(tenant.testKey, key, body).expect(201);
    const pruner = testApp.app.get(Pruner);
    const hours = (count: number) => () => new Date(Date.now() + count * 60 * 60 * 1000);
    await pruner.run({ now: hours(23.5) });
    const kept = await createProduct(tenant.testKey, key, { ...body, name: `${body.name} (changed)` }).expect(409);
    expect(kept.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');
    expect((await pruner.run({ now: hours(24.5) })).deleted.idempotency_keys).toBeGreaterThanOrEqual(1);
    const [{ count }] = await dataSource().query('SELECT count(*)::int AS count FROM idempotency_keys WHERE merchant_id = $1 AND key = $2', [tenant.merchantId, key]);
    expect(count).toBe(0);
    // After pruning the key is new again.
    const reused = await createProduct(tenant.testKey, key, { ...body, name: `${body.name} (changed)` }).expect(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
  });

  describe('POST /v1/entitlements (header or body idempotency_key)', () => {
    let productId: string;
    const grant = (body: object, headerKey: string | null = null) => {
      const request = testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey));
      if (headerKey !== null) request.set('Idempotency-Key', headerKey);
      return request.send(body);
    };
    const countEntitlements = async (storeCustomerId: string): Promise<number> => {
      const [{ count }] = await dataSource().query(
        `SELECT count(*)::int AS count FROM entitlements e JOIN customers c ON c.id = e.customer_id
         WHERE e.merchant_id = $1 AND c.store_customer_id = $2`,
        [tenant.merchantId, storeCustomerId],
      );
      return count;
    };

    beforeAll(async () => {
      productId = (await createProduct(tenant.testKey, null, { name: 'Granted', entitlement_type: 'permanent' }).expect(201)).body.data.id;
    });

    it('creates one entitlement for 20 concurrent creates with one key (body and header together)', async () => {
      const key = newKey();
      const customer = `cust_${key}`;
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          grant({ store_customer_id: customer, product_id: productId, idempotency_key: key }, index % 2 === 0 ? key : null),
        ),
      );
      const created = responses.filter((response) => response.status === 201);
      for (const response of responses.filter((item) => item.status !== 201)) {
        expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');
      }
      expect(new Set(created.map((response) => response.text)).size).toBe(1);
      expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      expect(await countEntitlements(customer)).toBe(1);
    });

    it('treats the body key like the header, and refuses a body key that differs from the header', async () => {
      const key = newKey();
      const customer = `cust_${key}`;
      const first = await grant({ store_customer_id: customer, product_id: productId, idempotency_key: key }).expect(201);
      const byHeader = await grant({ store_customer_id: customer, product_id: productId }, key).expect(201);
      expect(byHeader.headers['idempotent-replayed']).toBe('true');
      expect(byHeader.text).toBe(first.text);
      const differing = await grant({ store_customer_id: customer, product_id: productId, idempotency_key: key }, `${key}-other`).expect(400);
      expect(differing.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'idempotency_key' });
      const tooLong = await grant({ store_customer_id: customer, product_id: productId, idempotency_key: 'k'.repeat(256) }).expect(400);
      expect(tooLong.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'idempotency_key' });
      expect(await countEntitlements(customer)).toBe(1);
    });

    it('answers 409 for one key reused on another route', async () => {
      const key = newKey();
      await createProduct(tenant.testKey, key, { name: `Route ${key}`, entitlement_type: 'permanent' }).expect(201);
      const reused = await grant({ store_customer_id: `cust_${key}`, product_id: productId }, key).expect(409);
      expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_CONFLICT');
    });
  });

  describe('the key is recorded inside the request\'s transaction', () => {
    const body = { name: 'Held', entitlement_type: 'permanent' };
    const idempotent = (key: string) => ({ tenant: { merchantId: tenant.merchantId, mode: 'test' as const }, key, method: 'POST', path: '/v1/products', body });
    const storedKeys = async (key: string): Promise<number> => {
      const [{ count }] = await dataSource().query('SELECT count(*)::int AS count FROM idempotency_keys WHERE merchant_id = $1 AND key = $2', [tenant.merchantId, key]);
      return count;
    };

    it('makes a concurrent request with the key wait for the first transaction, then replays what it stored', async () => {
      const key = newKey();
      // What the held transaction answers with: a real product's shape, so the replay satisfies the contract.
      const product = (await createProduct(tenant.testKey, null, { name: `Answer ${key}`, entitlement_type: 'permanent' }).expect(201)).body.data;
      const claim = testApp.app.get(IdempotencyService).claim(idempotent(key), 'req_heldopen', 201);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let keyTaken = false;
      const first = testApp.app.get(UnitOfWork).run({ tenant: idempotent(key).tenant, idempotency: claim }, async () => {
        // The work runs after the transaction's first statement took the key.
        keyTaken = true;
        await held;
        return product;
      });
      await eventually(async () => keyTaken, 5_000, 10);
      let settled = false;
      const second = createProduct(tenant.testKey, key, body).then((response) => {
        settled = true;
        return response;
      });
      // The second request is held: the first transaction holds the key and has not committed.
      await untilBlocked(testApp, tenant.merchantId);
      expect(settled).toBe(false);
      release();
      await first;
      const replayed = await second;
      expect(replayed.status).toBe(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toEqual(claim.response?.body);
      expect(replayed.body.data).toEqual(product);
      expect(replayed.body.meta.request_id).toBe('req_heldopen');
      expect(await countProducts(tenant.merchantId, body.name)).toBe(0);
    });

    it('leaves nothing behind when the transaction rolls back, so the key runs the next time', async () => {
      const key = newKey();
      const claim = testApp.app.get(IdempotencyService).claim(idempotent(key), 'req_rolledback', 201);
      await expect(
        testApp.app.get(UnitOfWork).run({ tenant: idempotent(key).tenant, idempotency: claim }, async () => {
          throw new Error('the effect failed after the key was taken');
        }),
      ).rejects.toThrow('the effect failed');
      expect(claim.response).toBeNull();
      expect(await storedKeys(key)).toBe(0);
      const retried = await createProduct(tenant.testKey, key, { ...body, name: `Retried ${key}` }).expect(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await storedKeys(key)).toBe(1);
    });

    it('guards one transaction per request: a second one with the same claim is refused', async () => {
      const key = newKey();
      const claim = testApp.app.get(IdempotencyService).claim(idempotent(key), 'req_twice', 201);
      const operation = { tenant: idempotent(key).tenant, idempotency: claim };
      await testApp.app.get(UnitOfWork).run(operation, async () => ({ ok: true }));
      await expect(testApp.app.get(UnitOfWork).run(operation, async () => ({ ok: true }))).rejects.toThrow('only one transaction');
      expect(await storedKeys(key)).toBe(1);
    });
  });
});
