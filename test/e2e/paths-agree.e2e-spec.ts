import { DataSource } from 'typeorm';
import { FastPaths } from '../../src/database/fast-paths';
import { EntitlementCombinedGrantService } from '../../src/entitlements/entitlement-combined-grant.service';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Issue 38: a fast path is an optimisation of the transaction path, never a second implementation.
 * The same requests go to two merchants with the same catalogue: one with the combined (one read,
 * one write) paths on, one with them off (FastPaths, a test hook no request can reach), so every
 * create and download of the second runs as the transaction. What each wrote (rows), published
 * (events), answered and stored for replay must be equal but for ids and times; and on each path
 * the answer, the replay and a GET must be the same text, byte for byte (the event, stored as jsonb,
 * the same content with the metadata's text).
 */
const DAY = 24 * 60 * 60 * 1000;

describe('the fast paths and the transaction paths agree', () => {
  let testApp: TestApp;
  let fastPaths: FastPaths;
  /** How many grants the combined path answered (not fell back from) since the last reset. */
  let combinedAnswered = 0;

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    fastPaths = testApp.app.get(FastPaths);
    const combined = testApp.app.get(EntitlementCombinedGrantService);
    const grant = combined.grant.bind(combined);
    combined.grant = async (...args) => {
      const answered = await grant(...args);
      if (answered !== null) combinedAnswered += 1;
      return answered;
    };
  });
  afterAll(async () => {
    fastPaths.enabled = true;
    await testApp.close();
  });

  const query = <Row>(sql: string, parameters: unknown[]): Promise<Row[]> => testApp.app.get(DataSource).query(sql, parameters);

  /** What differs by nature between two merchants' equal requests: ids (each side its own), and the times a request takes from its clock. */
  function normalized(value: unknown, names: Map<string, string>): unknown {
    if (Array.isArray(value)) return value.map((item) => normalized(item, names));
    if (typeof value === 'string') {
      // Ids, also inside a message, become the same name on both sides (in order of first sight).
      return value.replace(/\b[a-z]+_[0-9a-z]{26}\b/g, (id) => {
        if (!names.has(id)) names.set(id, `${id.split('_')[0]}#${names.size}`);
        return names.get(id) as string;
      });
    }
    if (value === null || typeof value !== 'object') return value;
    const result: Record<string, unknown> = {};
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const field = object[key];
      if (['created_at', 'updated_at', 'granted_at', 'downloaded_at', 'timestamp', 'request_id'].includes(key) && field !== null) result[key] = '<now>';
      else if (key === 'expires_at' && typeof field === 'string' && typeof object.granted_at === 'string' && (Date.parse(field) - Date.parse(object.granted_at)) % DAY === 0) {
        // A default expiry is the grant's time plus the product's days: compare the distance (a given one as it is).
        result[key] = `granted_at + ${(Date.parse(field) - Date.parse(object.granted_at)) / DAY} days`;
      } else if (key === 'download_url' || key === 'merchant_id') result[key] = '<differs>';
      else if (key === 'expires_at' && typeof field === 'string' && 'download_url' in object) result[key] = '<now + 60 s>';
      else Object.defineProperty(result, key, { value: normalized(field, names), enumerable: true, writable: true, configurable: true });
    }
    return result;
  }

  interface Side {
    tenant: TestTenant;
    fast: boolean;
    clockId: string;
    products: Record<string, string>;
  }

  async function side(fast: boolean): Promise<Side> {
    const tenant = await testApp.createTenant('growth');
    const key = bearer(tenant.testKey);
    const products: Record<string, string> = {};
    const catalogue: Array<[string, Record<string, unknown>]> = [
      ['sku_permanent', { entitlement_type: 'permanent' }],
      ['sku_usage', { entitlement_type: 'usage_limited', usage_limit: 5 }],
      ['sku_time', { entitlement_type: 'time_limited', access_duration_days: 30 }],
    ];
    for (const [storeId, fields] of catalogue) {
      const body = { name: storeId, store_product_id: storeId, fulfillment_config: { delivery_method: 'URL', access_url: 'https://example.com/a' }, ...fields };
      products[storeId] = (await testApp.http.post('/v1/products').set(key).send(body).expect(201)).body.data.id;
    }
    const clock = await testApp.http.post('/v1/test-clocks').set(key).send({ frozen_time: '2030-01-01T00:00:00.000Z' }).expect(201);
    // A customer that exists before its grant names it by our id.
    await testApp.http.post('/v1/entitlements').set(key).send({ store_customer_id: 'c_existing', store_product_id: 'sku_usage' }).expect(201);
    return { tenant, fast, clockId: clock.body.data.id, products };
  }

  /** Runs `work` with the fast paths as the side says (requests run one at a time here). */
  async function on<T>(target: Side, work: () => Promise<T>): Promise<T> {
    fastPaths.enabled = target.fast;
    try {
      return await work();
    } finally {
      fastPaths.enabled = true;
    }
  }

  /** A create's JSON text for a side: `$clock` and `$customer` stand for that side's ids. */
  type Input = (target: Side, existingCustomerId: string) => string;
  const CREATES: Array<[string, Input, 'combined' | 'transaction']> = [
    ['plain', () => '{"store_customer_id":"c_plain","store_product_id":"sku_permanent"}', 'combined'],
    ['usage-limited by its product', () => '{"store_customer_id":"c_usage","store_product_id":"sku_usage"}', 'combined'],
    ['usage-limited by the grant', () => '{"store_customer_id":"c_usage_own","store_product_id":"sku_permanent","usage_limit":7}', 'combined'],
    ['time-limited, default expiry', () => '{"store_customer_id":"c_time","store_product_id":"sku_time"}', 'combined'],
    ['time-limited, given expiry', () => '{"store_customer_id":"c_time_given","store_product_id":"sku_time","expires_at":"2031-06-30T12:00:00.000Z"}', 'combined'],
    ['expiry on a permanent product', () => '{"store_customer_id":"c_expiry","store_product_id":"sku_permanent","expires_at":"2031-06-30T12:00:00Z"}', 'combined'],
    ['hostile metadata', () => '{"store_customer_id":"c_hostile","store_product_id":"sku_permanent","metadata":{"__proto__":{"admin":true},"constructor":"x","b":1,"a":[{"z":1,"y":2}]}}', 'combined'],
    ['metadata in another key order', () => '{"store_customer_id":"c_order","store_product_id":"sku_permanent","metadata":{"zeta":1,"alpha":{"yy":1,"x":2},"mid":"é","m":null}}', 'combined'],
    ['pending', () => '{"store_customer_id":"c_pending","store_product_id":"sku_permanent","status":"pending"}', 'combined'],
    ['store order ids', () => '{"store_customer_id":"c_order_ids","store_product_id":"sku_usage","store_order_id":"ord_1","store_line_item_id":"li_1"}', 'combined'],
    ['an existing customer by id', (_target, existing) => `{"customer_id":"${existing}","product_id":"$product"}`, 'combined'],
    ['a test clock', (target) => `{"store_customer_id":"c_clock","store_product_id":"sku_time","test_clock":"${target.clockId}","metadata":{"b":2,"a":1}}`, 'transaction'],
  ];

  interface Created {
    answer: string;
    replay: string;
    shown: string;
    event: string;
    row: Record<string, unknown>;
  }

  async function create(target: Side, name: string, input: Input): Promise<Created> {
    const key = bearer(target.tenant.testKey);
    const existing = await query<{ id: string }>(`SELECT id FROM customers WHERE merchant_id = $1 AND mode = 'test' AND store_customer_id = 'c_existing'`, [target.tenant.merchantId]);
    const body = input(target, existing[0].id).replace('$product', target.products.sku_permanent);
    const idempotencyKey = `paths-${name}`;
    const send = () => testApp.http.post('/v1/entitlements').set(key).set('Idempotency-Key', idempotencyKey).set('Content-Type', 'application/json').send(body);
    const answer = await on(target, () => send().expect(201));
    const replay = await on(target, () => send().expect(201));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const id = answer.body.data.id as string;
    const shown = await testApp.http.get(`/v1/entitlements/${id}`).set(key).expect(200);
    const [event] = await query<{ data: string }>(`SELECT data::text AS data FROM events WHERE merchant_id = $1 AND mode = 'test' AND type = 'entitlement.created' AND data->'object'->>'id' = $2`, [
      target.tenant.merchantId,
      id,
    ]);
    const [row] = await query<{ row: Record<string, unknown> }>(`SELECT to_jsonb(e) AS row FROM entitlements e WHERE id = $1`, [id]);
    return {
      answer: JSON.stringify(answer.body.data),
      replay: JSON.stringify(replay.body.data),
      shown: JSON.stringify(shown.body.data),
      event: JSON.stringify((JSON.parse(event.data) as { object: unknown }).object),
      row: row.row,
    };
  }

  it.each(CREATES)('a create (%s) writes, publishes, answers and replays the same on both paths', async (name, input, expectedPath) => {
    const [fast, slow] = [await side(true), await side(false)];
    combinedAnswered = 0;
    const viaFast = await create(fast, name, input);
    expect(combinedAnswered).toBe(expectedPath === 'combined' ? 1 : 0);
    const viaTransaction = await create(slow, name, input);
    expect(combinedAnswered).toBe(expectedPath === 'combined' ? 1 : 0);
    for (const created of [viaFast, viaTransaction]) {
      // On each path: the answer, the stored replay, a GET and the event are one text.
      expect(created.replay).toBe(created.answer);
      expect(created.shown).toBe(created.answer);
      // The event is stored as jsonb (its fields in jsonb's order): the same content, and the metadata's text.
      expect(JSON.parse(created.event)).toEqual(JSON.parse(created.answer));
      expect(JSON.stringify((JSON.parse(created.event) as { metadata: unknown }).metadata)).toBe(JSON.stringify((JSON.parse(created.answer) as { metadata: unknown }).metadata));
      // The row holds what the answer says (times to the millisecond, metadata as stored).
      const answer = JSON.parse(created.answer) as Record<string, unknown>;
      for (const column of ['created_at', 'updated_at', 'granted_at']) expect(new Date(created.row[column] as string).toISOString()).toBe(answer[column]);
      expect(JSON.stringify(created.row.metadata)).toBe(JSON.stringify(answer.metadata));
      expect(created.row.created_at).toBe(created.row.updated_at);
    }
    expect(normalized(JSON.parse(viaTransaction.answer), new Map())).toEqual(normalized(JSON.parse(viaFast.answer), new Map()));
    expect(JSON.stringify(normalized(JSON.parse(viaTransaction.answer), new Map()))).toBe(JSON.stringify(normalized(JSON.parse(viaFast.answer), new Map())));
    expect(normalized(viaTransaction.row, new Map())).toEqual(normalized(viaFast.row, new Map()));
    if (name === 'hostile metadata') expect(Object.keys(JSON.parse(viaFast.answer).metadata as object)).toContain('__proto__');
  });

  it('a create refused on one path is refused alike on the other', async () => {
    const [fast, slow] = [await side(true), await side(false)];
    const refusals = [
      '{"store_customer_id":"c_past","store_product_id":"sku_permanent","expires_at":"2001-01-01T00:00:00Z"}',
      '{"store_customer_id":"c_none","store_product_id":"sku_nothing"}',
      '{"customer_id":"cus_01jzzzzzzzzzzzzzzzzzzzzzzz","store_product_id":"sku_permanent"}',
    ];
    for (const body of refusals) {
      const answers: Array<{ status: number; error: unknown }> = [];
      for (const target of [fast, slow]) {
        const response = await on(target, () => testApp.http.post('/v1/entitlements').set(bearer(target.tenant.testKey)).set('Content-Type', 'application/json').send(body));
        answers.push({ status: response.status, error: { ...response.body.error, request_id: undefined } });
      }
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0].status).toBeGreaterThanOrEqual(400);
    }
  });

  describe('downloads', () => {
    const PDF = 'application/pdf';

    async function fileSide(fast: boolean, usageLimit: number | null) {
      const fixtures = new FileFixtures(testApp);
      const tenant = await testApp.createTenant('growth');
      const product = await fixtures.product(tenant.merchantId, 'live', { usageLimit: usageLimit ?? undefined });
      const bytes = Buffer.from('the same bytes');
      const upload = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'book.pdf', file_size: bytes.length, mime_type: PDF, product_id: product.id });
      expect((await putObject(upload.uploadUrl, bytes, PDF)).status).toBe(200);
      await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(200);
      const granted = await testApp.http
        .post('/v1/entitlements')
        .set(bearer(tenant.liveKey))
        .send({ store_customer_id: 'c_downloads', product_id: product.id, metadata: { seat: 1, a: 'x' } })
        .expect(201);
      return { fast, tenant, fileId: upload.fileId, entitlementId: granted.body.data.id as string, customerId: granted.body.data.customer_id as string };
    }

    type FileSide = Awaited<ReturnType<typeof fileSide>>;

    async function download(target: FileSide) {
      fastPaths.enabled = target.fast;
      try {
        const response = await testApp.http
          .get(`/v1/files/${target.fileId}/download`)
          .query({ entitlement_id: target.entitlementId, customer_id: target.customerId })
          .set(bearer(target.tenant.liveKey));
        return { status: response.status, body: { ...response.body, meta: undefined } as Record<string, unknown> };
      } finally {
        fastPaths.enabled = true;
      }
    }

    /** Everything the downloads wrote and published, for one side. */
    async function state(target: FileSide) {
      const merchant = target.tenant.merchantId;
      const [counters] = await query<Record<string, unknown>>(
        `SELECT f.download_count, e.usage_count, e.status, e.usage_limit, e.metadata::text AS metadata, (SELECT bandwidth_bytes FROM bandwidth_usage b WHERE b.merchant_id = $1 AND b.mode = 'live') AS bandwidth,
           (SELECT overage_bytes FROM bandwidth_usage b WHERE b.merchant_id = $1 AND b.mode = 'live') AS overage
         FROM files f, entitlements e WHERE f.id = $2 AND e.id = $3`,
        [merchant, target.fileId, target.entitlementId],
      );
      const records = await query<Record<string, unknown>>(`SELECT to_jsonb(d) - 'id' - 'downloaded_at' - 'merchant_id' AS record FROM downloads d WHERE merchant_id = $1 ORDER BY downloaded_at, id`, [merchant]);
      const events = await query<{ type: string; data: string }>(
        `SELECT type, data::text AS data FROM events WHERE merchant_id = $1 AND mode = 'live' AND type IN ('download.completed', 'entitlement.updated', 'entitlement.expired') ORDER BY created_at, id`,
        [merchant],
      );
      return { counters, records: records.map((row) => row.record), events: events.map((event) => ({ type: event.type, data: JSON.parse(event.data) as unknown })) };
    }

    it.each([
      ['unlimited', null, 3],
      ['usage-limited, through the limit and one past it', 2, 3],
    ] as const)('downloads (%s) record, count, meter, publish and answer the same on both paths', async (_name, usageLimit, times) => {
      const [fast, slow] = [await fileSide(true, usageLimit), await fileSide(false, usageLimit)];
      for (let index = 0; index < times; index += 1) {
        const [viaFast, viaTransaction] = [await download(fast), await download(slow)];
        expect(viaTransaction.status).toBe(viaFast.status);
        expect(normalized(viaTransaction.body, new Map())).toEqual(normalized(viaFast.body, new Map()));
      }
      const [fastState, slowState] = [await state(fast), await state(slow)];
      expect(fastState.counters.download_count).toBe(Math.min(times, usageLimit ?? times));
      expect(normalized(slowState, new Map())).toEqual(normalized(fastState, new Map()));
      // The events name the entitlement as a GET shows it, metadata byte for byte.
      const shown = await testApp.http.get(`/v1/entitlements/${fast.entitlementId}`).set(bearer(fast.tenant.liveKey)).expect(200);
      const lastUpdate = fastState.events.filter((event) => event.type === 'entitlement.updated').pop()?.data as { object: { metadata: unknown } };
      expect(JSON.stringify(lastUpdate.object.metadata)).toBe(JSON.stringify(shown.body.data.metadata));
    });
  });
});
