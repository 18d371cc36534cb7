import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { describeResponse, errorEnvelopeProblem } from '../support/error-envelope';
import { documentOperations } from '../support/openapi-operations';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Input that was a 5xx (issue 10 §3), each a 4xx now: forged cursors, dates outside years
 * 0001–9999 after their offset, counters past their column, and prototype keys.
 */

function expectError(response: Response, status: number, code: string, param?: string): void {
  expect({ status: response.status, code: response.body?.error?.code, ...(param !== undefined ? { param: response.body?.error?.param } : {}) }).toEqual({
    status,
    code,
    ...(param !== undefined ? { param } : {}),
  });
  expect(errorEnvelopeProblem(response)).toBeNull();
}

/** A cursor as the API issued them before they were signed with a secret: anyone could compute this checksum. */
function publicChecksumCursor(at: string, id: string, version: number): string {
  const payload = Buffer.from(JSON.stringify([version, at, id])).toString('base64url');
  return `${payload}.${createHash('sha256').update(`cursor:v${version}:${payload}`).digest('base64url').slice(0, 12)}`;
}

describe('hostile input is a 4xx', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let key: Record<string, string>;
  let productId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant('pro');
    key = bearer(tenant.testKey);
    const product = await testApp.http
      .post('/v1/products')
      .set(key)
      .send({ name: 'Hostile inputs', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Enjoy' } })
      .expect(201);
    productId = product.body.data.id;
  });
  afterAll(() => testApp.close());

  async function grant(body: Record<string, unknown> = {}): Promise<string> {
    const created = await testApp.http
      .post('/v1/entitlements')
      .set(key)
      .send({ store_customer_id: `hostile_${Math.random().toString(36).slice(2)}`, product_id: productId, ...body })
      .expect(201);
    return created.body.data.id;
  }

  describe('cursors are signed with a server secret', () => {
    it('refuses forged cursors with impossible dates on every list route (400 naming cursor)', async () => {
      const lists = documentOperations(testApp.app).filter((operation) => operation.method === 'get' && operation.queryParameters.some((parameter) => parameter.name === 'cursor'));
      expect(lists.length).toBeGreaterThan(3);
      await grant();
      const genuine = (await testApp.http.get('/v1/products?limit=1').set(key).expect(200)).body.pagination;
      const forged = [
        publicChecksumCursor('2024-02-30T00:00:00.000Z', 'prod_x', 1),
        publicChecksumCursor('0000-01-01T00:00:00.000Z', 'prod_x', 1),
        publicChecksumCursor('2024-02-30T00:00:00.000Z', 'prod_x', 2),
        publicChecksumCursor('+010000-01-01T00:00:00.000Z', 'prod_x', 2),
      ];
      const failures: string[] = [];
      for (const operation of lists) {
        const path = operation.template.replace(/\{[^}]+\}/g, () => 'x');
        const filters: Record<string, string> = {
          'GET /v1/entitlements': 'status=active&',
          'GET /v1/subscriptions': 'store_customer_id=x&',
          'GET /v1/orders': 'store_customer_id=x&',
        };
        const filter = filters[operation.key] ?? '';
        for (const cursor of forged) {
          const response = await testApp.http.get(`${path}?${filter}cursor=${encodeURIComponent(cursor)}`).set(operation.isAdmin ? {} : key);
          // Routes with a path parameter may answer 404 for the unknown 'x' first; never a 5xx.
          if (response.status >= 500 || (operation.pathParameters.length === 0 && (response.status !== 400 || response.body.error?.param !== 'cursor'))) {
            failures.push(`${operation.key} with ${cursor.slice(0, 20)}…: ${describeResponse(response)}`);
          }
        }
      }
      expect(failures).toEqual([]);
      // A cursor the API issued still works (a second product makes a second page).
      await testApp.http.post('/v1/products').set(key).send({ name: 'Second', entitlement_type: 'permanent' }).expect(201);
      const first = await testApp.http.get('/v1/products?limit=1').set(key).expect(200);
      expect(first.body.pagination.next_cursor).toEqual(expect.any(String));
      await testApp.http.get(`/v1/products?limit=1&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`).set(key).expect(200);
      expect(genuine.limit).toBe(1);
    });
  });

  describe('dates stay within years 0001–9999 after their offset', () => {
    const outOfRange = ['9999-12-31T23:59:59-05:00', '0000-06-15T00:00:00Z', '0001-01-01T00:00:00+01:00', '2024-02-30T00:00:00Z'];

    it.each(outOfRange)('refuses %s in every date filter (400 naming it)', async (value) => {
      const encoded = encodeURIComponent(value);
      expectError(await testApp.http.get(`/v1/entitlements?granted_after=${encoded}`).set(key), 400, 'INVALID_PARAMETER', 'granted_after');
      expectError(await testApp.http.get(`/v1/entitlements?granted_before=${encoded}`).set(key), 400, 'INVALID_PARAMETER', 'granted_before');
      expectError(await testApp.http.get(`/v1/events?created_after=${encoded}`).set(key), 400, 'INVALID_PARAMETER', 'created_after');
      expectError(await testApp.http.get(`/v1/events?created_before=${encoded}`).set(key), 400, 'INVALID_PARAMETER', 'created_before');
    });

    it.each(outOfRange)('refuses %s in every date body field (400 naming it), storing nothing', async (value) => {
      const customer = `hostile_date_${Math.random().toString(36).slice(2)}`;
      expectError(await testApp.http.post('/v1/entitlements').set(key).send({ store_customer_id: customer, product_id: productId, expires_at: value }), 400, 'INVALID_PARAMETER', 'expires_at');
      const listed = await testApp.http.get(`/v1/entitlements?store_customer_id=${customer}`).set(key).expect(200);
      expect(listed.body.data).toEqual([]);
      const entitlementId = await grant();
      expectError(await testApp.http.patch(`/v1/entitlements/${entitlementId}`).set(key).send({ expires_at: value }), 400, 'INVALID_PARAMETER', 'expires_at');
      await testApp.http.post(`/v1/entitlements/${entitlementId}/suspend`).set(key).send({}).expect(200);
      expectError(await testApp.http.post(`/v1/entitlements/${entitlementId}/reactivate`).set(key).send({ expires_at: value }), 400, 'INVALID_PARAMETER', 'expires_at');
      const stored = await testApp.http.get(`/v1/entitlements/${entitlementId}`).set(key).expect(200);
      expect(stored.body.data).toMatchObject({ status: 'suspended', expires_at: null });
    });

    it('accepts the edges: 9999-12-31T23:59:59.999Z and an offset that stays inside', async () => {
      await testApp.http.get(`/v1/entitlements?granted_before=${encodeURIComponent('9999-12-31T23:59:59.999Z')}`).set(key).expect(200);
      await testApp.http.get(`/v1/events?created_after=${encodeURIComponent('0001-01-01T00:00:00-01:00')}`).set(key).expect(200);
      const entitlementId = await grant({ expires_at: '9999-12-31T18:59:59-05:00' });
      const stored = await testApp.http.get(`/v1/entitlements/${entitlementId}`).set(key).expect(200);
      expect(stored.body.data.expires_at).toBe('9999-12-31T23:59:59.000Z');
    });
  });

  describe('counters stay within their column', () => {
    it("refuses a usage quantity that would pass usage_count's int4 range (400 naming quantity), changing nothing", async () => {
      const entitlementId = await grant();
      await testApp.app.get(DataSource).query('UPDATE entitlements SET usage_count = $2 WHERE id = $1', [entitlementId, 2_147_483_640]);
      expectError(await testApp.http.post(`/v1/entitlements/${entitlementId}/usage`).set(key).send({ quantity: 8 }), 400, 'INVALID_PARAMETER', 'quantity');
      expectError(await testApp.http.post(`/v1/entitlements/${entitlementId}/usage`).set(key).send({ quantity: 1_000_000 }), 400, 'INVALID_PARAMETER', 'quantity');
      const reached = await testApp.http.post(`/v1/entitlements/${entitlementId}/usage`).set(key).send({ quantity: 7 }).expect(200);
      expect(reached.body.data.usage_count).toBe(2_147_483_647);
      expectError(await testApp.http.post(`/v1/entitlements/${entitlementId}/usage`).set(key).send({}), 400, 'INVALID_PARAMETER', 'quantity');
      const stored = await testApp.http.get(`/v1/entitlements/${entitlementId}`).set(key).expect(200);
      expect(stored.body.data.usage_count).toBe(2_147_483_647);
    });
  });

  describe('prototype keys', () => {
    const sendJson = (method: 'post' | 'patch', path: string, json: string) => testApp.http[method](path).set(key).set('Content-Type', 'application/json').send(json);
    const hostileMetadata = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":"p","plain":1}';
    const expectedMetadata = () => JSON.parse(hostileMetadata) as Record<string, unknown>;

    it('keeps __proto__, constructor and prototype as data inside metadata, on products and entitlements, without polluting anything', async () => {
      // JSON.parse keeps "__proto__" as an own key; compare parsed bodies key by key (jsonb orders keys).
      const metadataOf = (response: Response) => JSON.parse(response.text).data.metadata as Record<string, unknown>;
      const expectSameEntries = (actual: Record<string, unknown>, expected: Record<string, unknown>) =>
        expect(Object.entries(actual).sort(([left], [right]) => left.localeCompare(right))).toEqual(Object.entries(expected).sort(([left], [right]) => left.localeCompare(right)));

      const product = await sendJson('post', '/v1/products', `{"name":"Proto","entitlement_type":"permanent","metadata":${hostileMetadata}}`).expect(201);
      expectSameEntries(metadataOf(product), expectedMetadata());
      const productRead = await testApp.http.get(`/v1/products/${product.body.data.id}`).set(key).expect(200);
      expectSameEntries(metadataOf(productRead), expectedMetadata());

      const entitlement = await sendJson('post', '/v1/entitlements', `{"store_customer_id":"proto_customer","product_id":"${productId}","metadata":${hostileMetadata}}`).expect(201);
      expectSameEntries(metadataOf(entitlement), expectedMetadata());
      const patched = await sendJson('patch', `/v1/entitlements/${entitlement.body.data.id}`, `{"metadata":{"constructor":"kept","__proto__":"kept too"}}`).expect(200);
      expectSameEntries(metadataOf(patched), JSON.parse('{"constructor":"kept","__proto__":"kept too"}'));
      const checked = await testApp.http.get(`/v1/entitlements/check?store_customer_id=proto_customer&product_id=${productId}`).set(key).expect(200);
      expect(checked.text).toContain('"__proto__":"kept too"');
      // Nothing leaked into prototypes on the server's side of the process.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it.each([
      ['__proto__', '{"__proto__":{"name":"Injected"},"name":"Proto","entitlement_type":"permanent"}'],
      ['constructor', '{"constructor":{"prototype":{"x":1}},"name":"Proto","entitlement_type":"permanent"}'],
      ['prototype', '{"prototype":1,"name":"Proto","entitlement_type":"permanent"}'],
      ['fulfillment_config.__proto__', '{"name":"Proto","entitlement_type":"permanent","fulfillment_config":{"delivery_method":"FILE","__proto__":{"x":1}}}'],
    ])('refuses %s as an unknown body field (400 INVALID_PARAMETER naming it)', async (param, json) => {
      expectError(await sendJson('post', '/v1/products', json), 400, 'INVALID_PARAMETER', param);
    });

    it('refuses them as query parameters too', async () => {
      expectError(await testApp.http.get('/v1/products?__proto__=1').set(key), 400, 'INVALID_PARAMETER', '__proto__');
      expectError(await testApp.http.get('/v1/products?constructor=1').set(key), 400, 'INVALID_PARAMETER', 'constructor');
    });
  });
});
