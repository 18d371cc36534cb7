import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ApiError, createEntitlementDeliveryClient, OPERATIONS } from '@entitlement-delivery/sdk';

/**
 * The SDK client's shape and what it sends, with a recording fetch: every operation of the
 * committed openapi.json is a method, each request carries its credential and keys, results carry
 * `lastResponse`, and lists paginate lazily.
 */
type Document = { paths: Record<string, Record<string, { operationId: string; security?: Array<Record<string, string[]>> }>> };
const document = JSON.parse(readFileSync(path.join(__dirname, '../../openapi.json'), 'utf8')) as Document;
const documentOperations = Object.entries(document.paths).flatMap(([route, item]) =>
  Object.entries(item).map(([method, operation]) => ({ route, method: method.toUpperCase(), ...operation })),
);

interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

function recordingClient(answer: (request: Request, index: number) => Response = () => ok({})) {
  const sent: Recorded[] = [];
  const client = createEntitlementDeliveryClient({
    baseUrl: 'http://api.test/',
    apiKey: 'eh_test_key',
    adminToken: 'admin-token-0123456789',
    initialRetryDelay: 1,
    fetch: async (request) => {
      sent.push({ method: request.method, url: new URL(request.url), headers: request.headers, body: await request.clone().text() });
      return answer(request, sent.length - 1);
    },
  });
  return { client, sent };
}

function ok(data: unknown, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ data, meta: { request_id: 'req_ok', timestamp: '2026-01-01T00:00:00.000Z' }, ...extra }), {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_ok', ...headers },
  });
}

describe('SDK client surface', () => {
  it('has one method per operation of openapi.json, at client.<group>.<name> of its operationId', () => {
    const { client } = recordingClient();
    const groups = client as unknown as Record<string, Record<string, unknown>>;
    expect(documentOperations.length).toBeGreaterThanOrEqual(62);
    for (const operation of documentOperations) {
      const [group, name] = operation.operationId.split('.') as [string, string];
      expect({ operationId: operation.operationId, type: typeof groups[group]?.[name] }).toEqual({ operationId: operation.operationId, type: 'function' });
      expect(OPERATIONS[operation.operationId as keyof typeof OPERATIONS]).toMatchObject({ method: operation.method, path: operation.route });
    }
    expect(Object.keys(OPERATIONS).sort()).toEqual(documentOperations.map((operation) => operation.operationId).sort());
  });

  it('sends path ids in order, the query, the body, and the credential each operation declares', async () => {
    const { client, sent } = recordingClient();
    await client.customers.listEntitlementsByStoreId('store/cust 1', { limit: 5 });
    await client.entitlements.revoke('ent_1', { reason: 'refund' });
    await client.admin.getUsage('mer_1');
    await client.health.live();
    await client.entitlements.getSigningKeys();

    expect(sent.map((request) => `${request.method} ${request.url.pathname}${request.url.search}`)).toEqual([
      'GET /v1/customers/store/store%2Fcust%201/entitlements?limit=5',
      'POST /v1/entitlements/ent_1/revoke',
      'GET /admin/v1/merchants/mer_1/usage',
      'GET /health/live',
      'GET /.well-known/jwks.json',
    ]);
    expect(JSON.parse(sent[1]?.body ?? '')).toEqual({ reason: 'refund' });
    expect(sent.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer eh_test_key',
      'Bearer eh_test_key',
      'Bearer admin-token-0123456789',
      null,
      null,
    ]);
  });

  it('sends a CSV import as text/csv', async () => {
    const { client, sent } = recordingClient();
    await client.imports.create('store_customer_id,store_product_id\nc1,sku_1\n');
    expect(sent[0]?.headers.get('content-type')).toBe('text/csv');
    expect(sent[0]?.body).toBe('store_customer_id,store_product_id\nc1,sku_1\n');
  });

  it('gives each keyed POST a fresh Idempotency-Key, the caller’s when given, and the body’s idempotency_key as the header', async () => {
    const { client, sent } = recordingClient();
    await client.products.create({ name: 'A', entitlement_type: 'permanent' });
    await client.products.create({ name: 'A', entitlement_type: 'permanent' });
    await client.products.create({ name: 'A', entitlement_type: 'permanent' }, { idempotencyKey: 'mine-1' });
    await client.entitlements.create({ store_customer_id: 'c1', product_id: 'prod_1', idempotency_key: 'from-the-body' });
    await client.products.update('prod_1', { name: 'B' });
    await client.admin.createMerchant({ name: 'Shop', plan: 'free' });

    const keys = sent.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[0]);
    // PATCH and the admin API take no key: none is sent.
    expect(keys.slice(2)).toEqual(['mine-1', 'from-the-body', null, null]);
  });

  it('exposes request id, rate limit and replay as a non-enumerable lastResponse', async () => {
    const { client } = recordingClient(() =>
      ok({ id: 'prod_1' }, {}, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '42', 'idempotent-replayed': 'true' }),
    );
    const result = await client.products.create({ name: 'A', entitlement_type: 'permanent' }, { idempotencyKey: 'k-1' });
    const { data, meta } = result;
    expect(data).toEqual({ id: 'prod_1' });
    expect(meta.request_id).toBe('req_ok');
    expect(result.lastResponse).toMatchObject({
      status: 200,
      requestId: 'req_ok',
      rateLimit: { limit: 60, remaining: 59, reset: 42 },
      idempotentReplayed: true,
      idempotencyKey: 'k-1',
      attempts: 1,
    });
    expect(Object.keys(result)).toEqual(['data', 'meta']);
    expect(JSON.parse(JSON.stringify(result))).not.toHaveProperty('lastResponse');
  });

  it('throws ApiError from grouped methods and from raw alike', async () => {
    const notFound = () =>
      new Response(JSON.stringify({ error: { type: 'not_found_error', message: 'No product', code: 'PRODUCT_NOT_FOUND', request_id: 'req_404' } }), {
        status: 404,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req_404' },
      });
    const { client } = recordingClient(notFound);
    await expect(client.products.get('prod_x')).rejects.toMatchObject({ name: 'NotFoundError', status: 404, code: 'PRODUCT_NOT_FOUND', requestId: 'req_404', type: 'not_found_error' });
    const rawError = await client.raw.GET('/v1/products/{product_id}', { params: { path: { product_id: 'prod_x' } } }).catch((caught: unknown) => caught);
    expect(rawError).toBeInstanceOf(ApiError);
    expect(rawError).toMatchObject({ code: 'PRODUCT_NOT_FOUND', lastResponse: { status: 404 } });

    const { client: proxied } = recordingClient(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(proxied.products.list()).rejects.toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE', body: '<html>Bad gateway</html>' });
  });
});

describe('SDK pagination', () => {
  /** A list of 7 items served 3 a page (or `limit` a page), newest first, cursors as the next index. */
  function pagedClient() {
    const items = Array.from({ length: 7 }, (_, index) => ({ id: `prod_${index}` }));
    return recordingClient((request) => {
      const url = new URL(request.url);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 3);
      const next = start + limit < items.length ? String(start + limit) : null;
      return ok(items.slice(start, start + limit), { pagination: { total: items.length, limit, has_more: next !== null, next_cursor: next } });
    });
  }

  it('awaits to the first page, with its pagination and lastResponse', async () => {
    const { client, sent } = pagedClient();
    const page = await client.products.list();
    expect(page.data.map((item) => item.id)).toEqual(['prod_0', 'prod_1', 'prod_2']);
    expect(page.pagination).toMatchObject({ total: 7, next_cursor: '3' });
    expect(page.lastResponse.requestId).toBe('req_ok');
    expect(sent).toHaveLength(1);
  });

  it('iterates every item across pages with for await, keeping the filters', async () => {
    const { client, sent } = pagedClient();
    const seen: string[] = [];
    for await (const product of client.products.list({ limit: 3 })) seen.push(product.id);
    expect(seen).toEqual(['prod_0', 'prod_1', 'prod_2', 'prod_3', 'prod_4', 'prod_5', 'prod_6']);
    expect(sent.map((request) => request.url.search)).toEqual(['?limit=3', '?limit=3&cursor=3', '?limit=3&cursor=6']);
  });

  it('collects up to a required limit with toArray, asking for pages as large as needed', async () => {
    const { client, sent } = pagedClient();
    const five = await client.products.list().toArray({ limit: 5 });
    expect(five.map((item) => item.id)).toEqual(['prod_0', 'prod_1', 'prod_2', 'prod_3', 'prod_4']);
    expect(sent.map((request) => request.url.search)).toEqual(['?limit=5']);
    await expect(client.products.list().toArray({ limit: 0 })).rejects.toThrow(RangeError);
    await expect(client.products.list().toArray(undefined as unknown as { limit: number })).rejects.toThrow(RangeError);
  });

  it('sends nothing until the list is awaited or iterated', async () => {
    const { client, sent } = pagedClient();
    const pending = client.products.list();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(0);
    await pending;
    expect(sent).toHaveLength(1);
  });
});
