import { QueryFailedError } from 'typeorm';
import { encodeCursor } from '../../src/pagination/cursor';
import { ProductsRepository } from '../../src/products/products.repository';
import { eventually } from '../support/eventually';
import { captureLogs, LogCapture } from '../support/log-capture';
import { TestWriteModule } from '../support/test-write.controller';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const admin = bearer(TEST_ADMIN_TOKEN);
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: { error: Record<string, unknown> };
}

function expectError(response: ErrorResponse, status: number, type: string, code: string, param?: string): void {
  expect({ status: response.status, ...response.body.error }).toMatchObject({ status, type, code, ...(param ? { param } : {}) });
  expect(response.body.error.request_id).toBe(response.headers['x-request-id']);
  expect(typeof response.body.error.message).toBe('string');
  expect(Object.keys(response.body)).toEqual(['error']);
}

describe('envelope and errors', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let logs: LogCapture;

  beforeAll(async () => {
    testApp = await createTestApp({ LOG_LEVEL: 'warn' }, { imports: [TestWriteModule] });
    logs = captureLogs(testApp.app, 'info');
    tenant = await testApp.createTenant();
  });
  afterAll(async () => {
    await testApp.close();
    logs.stop();
  });

  describe('envelope', () => {
    it('wraps a list in data, meta and pagination', async () => {
      const response = await testApp.http.get('/v1/products').set(bearer(tenant.testKey)).expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
      expect(response.body).toEqual({
        data: [],
        meta: { request_id: response.headers['x-request-id'], timestamp: expect.stringMatching(TIMESTAMP) },
        pagination: { total: 0, limit: 25, has_more: false, next_cursor: null },
      });
      expect(Math.abs(Date.parse(response.body.meta.timestamp) - Date.now())).toBeLessThan(60_000);
    });

    it('routes a path with a trailing slash like the path without it', async () => {
      const response = await testApp.http.get('/v1/products/').set(bearer(tenant.testKey)).expect(200);
      expect(response.body.pagination).toMatchObject({ limit: 25 });
    });

    it('wraps a single object in data and meta, without pagination', async () => {
      const response = await testApp.http.post('/admin/v1/merchants').set(admin).send({ name: 'Envelope', plan: 'free' }).expect(201);
      expect(Object.keys(response.body).sort()).toEqual(['data', 'meta']);
      expect(response.body.meta).toEqual({ request_id: response.headers['x-request-id'], timestamp: expect.stringMatching(TIMESTAMP) });
    });

    it('gives every request its own id', async () => {
      const first = await testApp.http.get('/v1/products').set(bearer(tenant.testKey));
      const second = await testApp.http.get('/v1/products').set(bearer(tenant.testKey));
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    });

    it('answers health checks in their own format, outside the envelope', async () => {
      const response = await testApp.http.get('/health/live').expect(200);
      expect(response.body).not.toHaveProperty('data');
      expect(response.body.status).toBe('ok');
      expect(response.headers['x-request-id']).toMatch(/^req_/);
      const ready = await testApp.http.get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' }, storage: { status: 'up' } } });
    });
  });

  describe('request bodies', () => {
    it('answers malformed JSON with 400 INVALID_JSON', async () => {
      for (const path of ['/admin/v1/merchants', '/v1/test-writes']) {
        const response = await testApp.http
          .post(path)
          .set(path.startsWith('/admin') ? admin : bearer(tenant.testKey))
          .set('Content-Type', 'application/json')
          .send('{"name": "Acme", "plan": ');
        expectError(response, 400, 'invalid_request_error', 'INVALID_JSON');
      }
    });

    it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
      const body = JSON.stringify({ name: 'x'.repeat(1024 * 1024), plan: 'free' });
      const response = await testApp.http.post('/admin/v1/merchants').set(admin).set('Content-Type', 'application/json').send(body);
      expectError(response, 413, 'invalid_request_error', 'PAYLOAD_TOO_LARGE');
    });

    it('accepts a body just under 1 MiB (the limit is the body, not less)', async () => {
      const note = 'x'.repeat(1024 * 1024 - 100);
      const response = await testApp.http.post('/v1/test-writes').set(bearer(tenant.testKey)).send({ note }).expect(201);
      expect(response.body.data.note.length).toBe(note.length);
    });

    it('answers an unknown field with 400 INVALID_PARAMETER naming it in message and param', async () => {
      const response = await testApp.http.post('/admin/v1/merchants').set(admin).send({ name: 'Acme', plan: 'free', favourite_colour: 'red' });
      expectError(response, 400, 'invalid_request_error', 'INVALID_PARAMETER', 'favourite_colour');
      expect(response.body.error.message).toContain('favourite_colour');
      const onApi = await testApp.http.post('/v1/test-writes').set(bearer(tenant.testKey)).send({ note: 'x', extra: 1 });
      expectError(onApi, 400, 'invalid_request_error', 'INVALID_PARAMETER', 'extra');
    });

    it.each([
      ['text/plain', '{"name":"Acme","plan":"free"}'],
      ['application/x-www-form-urlencoded', 'name=Acme&plan=free'],
      ['application/xml', '<merchant><name>Acme</name></merchant>'],
    ])('answers a %s body with 400 INVALID_PARAMETER', async (contentType, body) => {
      const response = await testApp.http.post('/admin/v1/merchants').set(admin).set('Content-Type', contentType).send(body);
      expectError(response, 400, 'invalid_request_error', 'INVALID_PARAMETER');
      expect(response.body.error.message).toContain('application/json');
    });

    it.each([
      ['an array', '[{"name":"Acme","plan":"free"}]'],
      ['a string', '"Acme"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('answers a top-level %s with 400', async (_label, body) => {
      const response = await testApp.http.post('/admin/v1/merchants').set(admin).set('Content-Type', 'application/json').send(body);
      expect(response.status).toBe(400);
      expect(['INVALID_PARAMETER', 'INVALID_JSON']).toContain(response.body.error.code);
      expect(response.body.error.request_id).toBe(response.headers['x-request-id']);
    });
  });

  describe('routes and queries', () => {
    it.each([
      ['GET', '/'],
      ['GET', '/v2/products'],
      ['GET', '/V1/products'],
      ['GET', '/v1'],
    ])('answers an unknown route outside /v1/ %s %s with 404 NOT_FOUND, key or not', async (method, path) => {
      const verb = method.toLowerCase() as 'get';
      expectError(await testApp.http[verb](path), 404, 'not_found_error', 'NOT_FOUND');
      expectError(await testApp.http[verb](path).set(bearer(tenant.testKey)), 404, 'not_found_error', 'NOT_FOUND');
    });

    it.each([
      ['GET', '/v1/nothing-here'],
      ['POST', '/v1/products/prod_x/archive'],
      ['DELETE', '/v1/products'],
      ['OPTIONS', '/v1/products'],
    ])('answers an unknown route under /v1/ %s %s with 404 NOT_FOUND with a key, 401 without (the key is checked first)', async (method, path) => {
      const verb = method.toLowerCase() as 'get' | 'post' | 'delete' | 'options';
      expectError(await testApp.http[verb](path).set(bearer(tenant.testKey)), 404, 'not_found_error', 'NOT_FOUND');
      expectError(await testApp.http[verb](path), 401, 'authentication_error', 'INVALID_API_KEY');
    });

    it.each(['0', '101', 'abc', '1.5', '-1', ''])('answers limit=%p with 400 INVALID_PARAMETER', async (limit) => {
      const response = await testApp.http.get(`/v1/products?limit=${limit}`).set(bearer(tenant.testKey));
      expectError(response, 400, 'invalid_request_error', 'INVALID_PARAMETER', 'limit');
    });

    it('accepts limit=1 and limit=100', async () => {
      for (const limit of [1, 100]) {
        const response = await testApp.http.get(`/v1/products?limit=${limit}`).set(bearer(tenant.testKey)).expect(200);
        expect(response.body.pagination.limit).toBe(limit);
      }
    });

    it('answers a tampered or foreign cursor with 400 INVALID_PARAMETER on cursor', async () => {
      const genuine = encodeCursor({ at: new Date().toISOString(), id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' });
      const [payload, sum] = genuine.split('.');
      const forged = `${Buffer.from(JSON.stringify([1, '2000-01-01T00:00:00.000Z', 'prod_x'])).toString('base64url')}.${sum}`;
      for (const cursor of [forged, `${payload}.AAAAAAAAAAAA`, 'garbage', `${genuine}x`, 'x'.repeat(600)]) {
        const response = await testApp.http.get(`/v1/products?cursor=${encodeURIComponent(cursor)}`).set(bearer(tenant.testKey));
        expectError(response, 400, 'invalid_request_error', 'INVALID_PARAMETER', 'cursor');
      }
      await testApp.http.get(`/v1/products?cursor=${encodeURIComponent(genuine)}`).set(bearer(tenant.testKey)).expect(200);
    });

    it('answers an unknown query parameter with 400 naming it', async () => {
      const response = await testApp.http.get('/v1/products?colour=red').set(bearer(tenant.testKey));
      expectError(response, 400, 'invalid_request_error', 'INVALID_PARAMETER', 'colour');
    });
  });

  describe('unexpected errors', () => {
    it('answers 500 INTERNAL_ERROR with nothing internal, and logs the error with the request id', async () => {
      const repository = testApp.app.get(ProductsRepository);
      jest.spyOn(repository, 'list').mockRejectedValueOnce(new Error('secret internal detail'));
      const response = await testApp.http.get('/v1/products').set(bearer(tenant.testKey));
      expectError(response, 500, 'api_error', 'INTERNAL_ERROR');
      const text = JSON.stringify(response.body);
      for (const secret of ['secret internal detail', 'stack', 'ProductsRepository', '.ts', ' at ']) expect(text).not.toContain(secret);
      expect(response.body.error).not.toHaveProperty('param');

      const requestId = response.headers['x-request-id'];
      await eventually(async () => logs.text().includes('secret internal detail'), 5_000, 20);
      const errorLine = logs.lines().find((line) => JSON.stringify(line).includes('secret internal detail'));
      expect(errorLine).toBeDefined();
      expect(JSON.stringify(errorLine)).toContain(requestId);
      expect(errorLine?.level).toBe(50);
    });

    it('hides SQL from a failed query', async () => {
      const repository = testApp.app.get(ProductsRepository);
      const sqlError = new QueryFailedError('SELECT * FROM products WHERE merchant_id = $1', ['mer_secret'], new Error('relation "products" does not exist'));
      jest.spyOn(repository, 'findById').mockRejectedValueOnce(sqlError);
      const response = await testApp.http.get('/v1/products/prod_01jd8x3k2m4n5p6q7r8s9t0v1w').set(bearer(tenant.testKey));
      expectError(response, 500, 'api_error', 'INTERNAL_ERROR');
      const text = JSON.stringify(response.body);
      for (const secret of ['SELECT', 'products', 'mer_secret', 'relation']) expect(text).not.toContain(secret);
    });

    it('renders a non-Error throw as 500 too', async () => {
      jest.spyOn(testApp.app.get(ProductsRepository), 'list').mockRejectedValueOnce('a bare string');
      const response = await testApp.http.get('/v1/products').set(bearer(tenant.testKey));
      expectError(response, 500, 'api_error', 'INTERNAL_ERROR');
      expect(JSON.stringify(response.body)).not.toContain('a bare string');
    });
  });

  describe('headers and logs', () => {
    it('sets helmet security headers and hides the framework', async () => {
      for (const response of [
        await testApp.http.get('/v1/products').set(bearer(tenant.testKey)),
        await testApp.http.get('/v1/nothing-here'),
      ]) {
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
        expect(response.headers['content-security-policy']).toBeDefined();
        expect(response.headers['referrer-policy']).toBe('no-referrer');
        expect(response.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('logs one line per request with request id, merchant, route, status and duration, never the key', async () => {
      const key = await testApp.createKey(tenant.merchantId, 'live', ['products:read']);
      const secretPart = key.slice(8);
      const ok = await testApp.http.get('/v1/products?limit=5').set(bearer(key)).expect(200);
      await testApp.http.get(`/v1/products?api_key=${key}`).expect(401);
      await testApp.http.get('/v1/products').set('X-Api-Key', key).set('Cookie', `session=${key}`).expect(401);
      await testApp.http.get('/v1/products').set(bearer(`${key.slice(0, -1)}Z`)).expect(401);
      await testApp.http.post('/admin/v1/merchants').set(admin).send({ name: 'Logged', plan: 'free' }).expect(201);

      const requestId = ok.headers['x-request-id'];
      await eventually(async () => logs.lines().some((line) => JSON.stringify(line).includes(requestId) && 'responseTime' in line), 5_000, 20);
      const line = logs.lines().find((candidate) => JSON.stringify(candidate).includes(requestId) && 'responseTime' in candidate);
      expect(line).toMatchObject({
        merchant_id: tenant.merchantId,
        mode: 'live',
        route: '/v1/products',
        res: { status: 200 },
        req: { id: requestId, method: 'GET', path: '/v1/products' },
      });
      expect(typeof line?.responseTime).toBe('number');

      await eventually(async () => logs.text().includes('/admin/v1/merchants'), 5_000, 20);
      const text = logs.text();
      expect(text).not.toContain(secretPart);
      expect(text).not.toContain(secretPart.slice(0, 20));
      expect(text).not.toContain(TEST_ADMIN_TOKEN);
      expect(text).not.toMatch(/authorization/i);
      expect(text).not.toContain('Bearer');
      expect(text).not.toContain('api_key=');
    });
  });
});
