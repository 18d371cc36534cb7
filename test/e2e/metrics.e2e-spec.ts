import { DataSource } from 'typeorm';
import { MetricsServer } from '../../src/observability/metrics-server';
import type { ProductEntity } from '../../src/products/product.entity';
import { grant, insertProduct } from '../support/entitlement-fixtures';
import { eventually } from '../support/eventually';
import { Scrape, scrape } from '../support/metrics-scrape';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const CHECK_ROUTE = '/v1/entitlements/check';
/** Long enough to be released by the test, never by time. */
const HELD_MILLISECONDS = 600_000;

/**
 * DESIGN §16: the metrics listener. A scripted set of requests, then each metric's value read
 * from a scrape. The embedded database is this app's alone, so background work (webhook
 * deliveries, import rows) is counted exactly; on PostgreSQL the worker's database may hold other
 * suites' leftovers, which this app's dispatcher and import worker also serve: at least.
 */
describe('metrics (Prometheus, on a listener of its own)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let product: ProductEntity;
  let receiver: WebhookReceiver;
  let port: number;
  const ownDatabase = !process.env.EH_TEST_DATABASE_URL;
  const exactlyOrAtLeast = (actual: number, expected: number) => (ownDatabase ? expect(actual).toBe(expected) : expect(actual).toBeGreaterThanOrEqual(expected));
  const key = () => bearer(tenant.testKey);
  const requests = (metrics: Scrape, labels: Record<string, string>) => metrics.sum('http_requests_total', labels);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    testApp = await createTestApp({
      METRICS_PORT: '0',
      RATE_LIMIT_READ_PER_MINUTE: '3',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '2',
      WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms',
      EXPIRY_SWEEP_INTERVAL: '1h',
    });
    port = testApp.app.get(MetricsServer).port as number;
    tenant = await testApp.createTenant();
    product = await insertProduct(testApp, tenant.merchantId, 'test');
  });
  afterAll(async () => {
    await testApp?.close();
    await receiver?.close();
  });

  it('serves /metrics on its own port only, with the default process metrics and no tenant in any label', async () => {
    expect(port).toBeGreaterThan(0);
    const api = await testApp.http.get('/metrics');
    expect(api.status).toBe(404);
    expect(api.text).not.toContain('http_requests_total');
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    const metrics = await scrape(port);
    expect(metrics.matching('process_cpu_user_seconds_total')).toHaveLength(1);
    expect(metrics.matching('nodejs_heap_size_total_bytes')).toHaveLength(1);
    expect(metrics.text).not.toContain(tenant.merchantId);
    expect(metrics.text).not.toContain(tenant.testKey);
  });

  it('counts the access check, hit and miss, on the direct route and the routed one alike, and the 404 of an unknown path', async () => {
    const before = await scrape(port);
    await grant(testApp, tenant.testKey, { store_customer_id: 'metrics_customer', product_id: product.id });
    const hit = await testApp.http.get(`${CHECK_ROUTE}?store_customer_id=metrics_customer&product_id=${product.id}`).set(key()).expect(200);
    expect(hit.body.data.entitled).toBe(true);
    const miss = await testApp.http.get(`${CHECK_ROUTE}?store_customer_id=nobody&product_id=${product.id}`).set(key()).expect(200);
    expect(miss.body.data.entitled).toBe(false);
    // A trailing slash is served by the framework's router: the same route label.
    const routed = await testApp.http.get(`${CHECK_ROUTE}/?store_customer_id=nobody&product_id=${product.id}`).set(key()).expect(200);
    expect(routed.body.data.entitled).toBe(false);
    await testApp.http.get('/v1/no-such-route/42').set(key()).expect(404);

    const after = await scrape(port);
    const delta = (name: string, labels: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels);
    expect(delta('entitlement_checks_total', { result: 'entitled' })).toBe(1);
    expect(delta('entitlement_checks_total', { result: 'not_entitled' })).toBe(2);
    expect(delta('http_requests_total', { method: 'GET', route: CHECK_ROUTE, status: '200' })).toBe(3);
    expect(delta('http_requests_total', { method: 'POST', route: '/v1/entitlements', status: '201' })).toBe(1);
    expect(delta('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(delta('http_request_duration_seconds_count', { method: 'GET', route: CHECK_ROUTE })).toBe(3);
    expect(after.matching('http_request_duration_seconds_bucket', { method: 'GET', route: CHECK_ROUTE, le: '+Inf' })).toHaveLength(1);
    // The raw path is never a label.
    expect(after.text).not.toContain('/v1/no-such-route/42');
    expect(after.text).not.toContain('metrics_customer');
  });

  it('counts a 429 of a spent read budget by kind and by route', async () => {
    const limited = await testApp.createKey(tenant.merchantId, 'test', ['*']);
    const before = await scrape(port);
    const check = () => testApp.http.get(`${CHECK_ROUTE}?store_customer_id=nobody&product_id=${product.id}`).set(bearer(limited));
    for (let index = 0; index < 3; index += 1) await check().expect(200);
    await check().expect(429);
    const after = await scrape(port);
    expect(after.sum('rate_limited_total', { kind: 'read' }) - before.sum('rate_limited_total', { kind: 'read' })).toBe(1);
    expect(requests(after, { route: CHECK_ROUTE, status: '429' }) - requests(before, { route: CHECK_ROUTE, status: '429' })).toBe(1);
    expect(after.sum('entitlement_checks_total') - before.sum('entitlement_checks_total')).toBe(3);
  });

  it('counts webhook attempts by outcome and shows the pending delivery and its age while it waits', async () => {
    const path = '/metrics-hook';
    receiver.behaviour = (_request, countForId) =>
      countForId === 1 ? { status: 500, body: 'down' } : countForId === 2 ? { status: 200, body: 'ok', delayMilliseconds: HELD_MILLISECONDS } : { status: 200, body: 'ok' };
    const endpoint = await testApp.http.post('/v1/webhook-endpoints').set(key()).send({ url: receiver.url(path), enabled_events: ['entitlement.created'] }).expect(201);
    expect(endpoint.body.data.id).toBeDefined();
    const before = await scrape(port);
    await grant(testApp, tenant.testKey, { store_customer_id: 'metrics_webhook', product_id: product.id });

    // The first attempt failed; the retry is held by the receiver, so the delivery is still pending.
    await receiver.until(() => receiver.at(path).length === 1 && receiver.inFlight === 1);
    let waiting: Scrape | null = null;
    await eventually(async () => {
      waiting = await scrape(port);
      return waiting.sum('webhook_attempts_total', { outcome: 'failed' }) > before.sum('webhook_attempts_total', { outcome: 'failed' });
    }, 30_000);
    const during = waiting as unknown as Scrape;
    exactlyOrAtLeast(during.sum('webhook_attempts_total', { outcome: 'failed' }) - before.sum('webhook_attempts_total', { outcome: 'failed' }), 1);
    expect(during.sum('webhook_deliveries_pending')).toBeGreaterThanOrEqual(1);
    expect(during.sum('webhook_oldest_pending_age_seconds')).toBeGreaterThan(0);

    receiver.releaseHeld();
    await receiver.until(() => receiver.at(path).length === 2);
    await eventually(async () => {
      const settled = await scrape(port);
      const succeeded = settled.sum('webhook_attempts_total', { outcome: 'succeeded' }) - before.sum('webhook_attempts_total', { outcome: 'succeeded' });
      return succeeded >= 1 && (!ownDatabase || settled.sum('webhook_deliveries_pending') === 0);
    }, 30_000);
    const settled = await scrape(port);
    exactlyOrAtLeast(settled.sum('webhook_attempts_total', { outcome: 'succeeded' }) - before.sum('webhook_attempts_total', { outcome: 'succeeded' }), 1);
    if (ownDatabase) expect(settled.sum('webhook_oldest_pending_age_seconds')).toBe(0);
  });

  it('counts the rows an import processed', async () => {
    const before = await scrape(port);
    const rows = [
      { store_customer_id: 'metrics_import_1', product_id: product.id },
      { store_customer_id: 'metrics_import_2', product_id: product.id },
      { store_customer_id: 'metrics_import_3', product_id: 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' },
    ];
    await testApp.http.post('/v1/entitlement-imports').set(key()).send({ rows }).expect(202);
    await eventually(async () => (await scrape(port)).sum('import_rows_processed_total') - before.sum('import_rows_processed_total') >= rows.length, 30_000);
    exactlyOrAtLeast((await scrape(port)).sum('import_rows_processed_total') - before.sum('import_rows_processed_total'), rows.length);
  });

  it('shows the pools by state and counts failed statements by kind', async () => {
    const before = await scrape(port);
    await expect(testApp.app.get(DataSource).query('SELECT 1 / 0')).rejects.toThrow(/division by zero/);
    const after = await scrape(port);
    expect(after.sum('db_errors_total', { kind: 'data' }) - before.sum('db_errors_total', { kind: 'data' })).toBe(1);
    for (const state of ['idle', 'busy', 'waiting']) expect(after.matching('db_pool_connections', { pool: 'main', state })).toHaveLength(1);
    expect(after.sum('db_pool_connections', { pool: 'main', state: 'idle' }) + after.sum('db_pool_connections', { pool: 'main', state: 'busy' })).toBeGreaterThanOrEqual(1);
    // PostgreSQL gives the check connections of its own; the embedded database is one session.
    expect(after.matching('db_pool_connections', { pool: 'check' })).toHaveLength(ownDatabase ? 0 : 3);
  });

  // Last: the client's address is over the failure limit afterwards (valid keys still pass).
  it('counts failed authentications by kind, and the 429 that follows too many', async () => {
    const before = await scrape(port);
    const wrong = () => testApp.http.get(`${CHECK_ROUTE}?store_customer_id=nobody&product_id=${product.id}`).set(bearer('sk_test_notARealKey0000000000000000'));
    await wrong().expect(401);
    await wrong().expect(401);
    await wrong().expect(429);
    const after = await scrape(port);
    const delta = (name: string, labels: Record<string, string>) => after.sum(name, labels) - before.sum(name, labels);
    expect(delta('auth_failures_total', { kind: 'invalid_api_key' })).toBe(3);
    expect(delta('rate_limited_total', { kind: 'auth_failures' })).toBe(1);
    // Refused by the gate, before routing: no route on either adapter.
    expect(delta('http_requests_total', { route: 'unmatched', status: '401' })).toBe(2);
    expect(delta('entitlement_checks_total', {})).toBe(0);
  });
});
