import { freePort } from '../support/free-port';
import { RawResponse, sendFrom } from '../support/raw-http';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * The answers that differed between Express and Fastify before both ran the same request gate,
 * pinned down exactly. CI runs this suite once per adapter (TEST_HTTP_ADAPTER), so both must give
 * these very statuses, header names and bodies.
 */

const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
/** sendFrom closes its connection after each request, so no keep-alive header. */
const JSON_RESPONSE_HEADERS = ['connection', 'content-length', 'content-type', 'date', 'x-request-id', ...SECURITY_HEADERS];
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

function headerNames(response: RawResponse): string[] {
  return Object.keys(response.headers).sort();
}

describe(`HTTP behaviour that must not depend on the adapter (running on ${process.env.TEST_HTTP_ADAPTER ?? 'express'})`, () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let port: number;
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string) => sendFrom({ port }, method, path, headers, body);

  beforeAll(async () => {
    port = await freePort();
    testApp = await createTestApp();
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  it('sends exactly the same header names on a success, an error and a refusal before routing', async () => {
    const list = await send('GET', '/v1/products', bearer(tenant.testKey));
    expect(list.status).toBe(200);
    expect(headerNames(list)).toEqual([...JSON_RESPONSE_HEADERS, ...RATE_LIMIT_HEADERS].sort());
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const [path, headers, status] of [
      ['/v1/products/prod_01jd8x3k2m4n5p6q7r8s9t0v1w', bearer(tenant.testKey), 404],
      ['/v1/products', {}, 401],
      ['/v1/nothing-here', bearer(tenant.testKey), 404],
      ['/nothing-here', {}, 404],
      ['/v1/products/%E0%A4%A', {}, 404],
    ] as Array<[string, Record<string, string>, number]>) {
      const response = await send('GET', path, headers);
      expect({ path, status: response.status }).toEqual({ path, status });
      const expected = headers.Authorization && status === 404 && path.startsWith('/v1/products/') ? [...JSON_RESPONSE_HEADERS, ...RATE_LIMIT_HEADERS] : JSON_RESPONSE_HEADERS;
      expect({ path, headers: headerNames(response) }).toEqual({ path, headers: [...expected].sort() });
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(response.text).error.request_id).toBe(response.headers['x-request-id']);
    }
  });

  it('answers HEAD like GET without a body, authenticated or not', async () => {
    const head = await send('HEAD', '/v1/products', bearer(tenant.testKey));
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    const refused = await send('HEAD', '/v1/products');
    expect(refused.status).toBe(401);
    expect(refused.text).toBe('');
    expect((await send('HEAD', '/health/live')).status).toBe(200);
  });

  it('answers a malformed percent-encoding with 404 NOT_FOUND, key or not, on any route', async () => {
    for (const path of ['/v1/products/%E0%A4%A', '/v1/customers/store/%ZZ/entitlements', '/v1/entitlements/ent_%C0%AF', '/admin/v1/merchants/%']) {
      for (const headers of [{}, bearer(tenant.testKey)]) {
        const response = await send('GET', path, headers);
        expect({ path, status: response.status, code: JSON.parse(response.text).error.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
      }
    }
  });

  it('routes case-sensitively and ignores one trailing slash', async () => {
    expect((await send('GET', '/v1/products/', bearer(tenant.testKey))).status).toBe(200);
    expect((await send('GET', '/V1/products', bearer(tenant.testKey))).status).toBe(404);
    expect((await send('GET', '/v1/Products', bearer(tenant.testKey))).status).toBe(404);
    expect((await send('GET', '//v1/products', bearer(tenant.testKey))).status).toBe(404);
  });

  it('holds a GET body to the JSON rules', async () => {
    const key = bearer(tenant.testKey);
    const empty = await send('GET', '/v1/products', { ...key, 'Content-Type': 'application/json' }, '{}');
    expect([empty.status, empty.status === 200 ? '' : empty.text]).toEqual([200, '']);
    const notJson = await send('GET', '/v1/products', { ...key, 'Content-Type': 'application/json' }, '{"a":');
    expect([notJson.status, JSON.parse(notJson.text).error.code]).toEqual([400, 'INVALID_JSON']);
    const text = await send('GET', '/v1/products', { ...key, 'Content-Type': 'text/plain' }, 'hello');
    expect([text.status, JSON.parse(text.text).error.code]).toEqual([400, 'INVALID_PARAMETER']);
    const array = await send('GET', '/v1/products', { ...key, 'Content-Type': 'application/json' }, '[]');
    expect([array.status, JSON.parse(array.text).error.code]).toEqual([400, 'INVALID_PARAMETER']);
  });

  it('refuses other charsets and compressed bodies with 400, and a body over 1 MiB with 413 and a closed connection', async () => {
    const key = bearer(tenant.testKey);
    const body = JSON.stringify({ name: 'x', entitlement_type: 'permanent' });
    const refusedHeaders: Array<Record<string, string>> = [
      { 'Content-Type': 'application/json; charset=utf-16' },
      { 'Content-Type': 'application/json; charset=latin1' },
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    ];
    for (const headers of refusedHeaders) {
      const response = await send('POST', '/v1/products', { ...key, ...headers }, body);
      expect([response.status, JSON.parse(response.text).error.code]).toEqual([400, 'INVALID_PARAMETER']);
    }
    const tooLarge = await send('POST', '/v1/products', { ...key, 'Content-Type': 'application/json' }, JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    expect([tooLarge.status, JSON.parse(tooLarge.text).error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(tooLarge.headers.connection).toBe('close');
  });

  it('answers OPTIONS like any unknown route', async () => {
    const options = await send('OPTIONS', '/v1/products', bearer(tenant.testKey));
    expect([options.status, JSON.parse(options.text).error.code]).toEqual([404, 'NOT_FOUND']);
    expect(options.headers.allow).toBeUndefined();
  });
});
