import { RootLogger } from '../../src/logging/root-logger';
import { Tracing } from '../../src/observability/tracing';
import type { ProductEntity } from '../../src/products/product.entity';
import { grant, insertProduct } from '../support/entitlement-fixtures';
import { eventually } from '../support/eventually';
import { captureLogs } from '../support/log-capture';
import { OtlpReceiver, ReceivedSpan } from '../support/otlp-receiver';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const CHECK_ROUTE = '/v1/entitlements/check';
/** OTLP's SpanKind numbering (SPAN_KIND_SERVER, SPAN_KIND_CLIENT). */
const SERVER = 2;
const CLIENT = 3;

/** DESIGN §16: with OTEL_EXPORTER_OTLP_ENDPOINT set, a span per request and child spans for its statements, sent to a loopback collector. */
describe('tracing (OpenTelemetry over OTLP/HTTP)', () => {
  let collector: OtlpReceiver;
  let webhooks: WebhookReceiver;
  let testApp: TestApp;
  let tenant: TestTenant;
  let product: ProductEntity;

  const flush = () => testApp.app.get(Tracing).flush();
  const spansOf = (traceId: string): ReceivedSpan[] => collector.spans.filter((span) => span.traceId === traceId);

  beforeAll(async () => {
    collector = await OtlpReceiver.start();
    webhooks = await WebhookReceiver.start();
    testApp = await createTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_SERVICE_NAME: undefined, EXPIRY_SWEEP_INTERVAL: '1h' });
    tenant = await testApp.createTenant();
    product = await insertProduct(testApp, tenant.merchantId, 'test');
  });
  afterAll(async () => {
    await testApp?.close();
    await webhooks?.close();
    await collector?.close();
  });

  it('sends one request as a server span with its route, status and request id, its statements as child spans, and logs its trace ids', async () => {
    await grant(testApp, tenant.testKey, { store_customer_id: 'traced', product_id: product.id });
    const logs = captureLogs(testApp.app);
    let requestId: string;
    try {
      const response = await testApp.http.get(`${CHECK_ROUTE}?store_customer_id=traced&product_id=${product.id}`).set(bearer(tenant.testKey)).expect(200);
      requestId = response.headers['x-request-id'];
    } finally {
      logs.stop();
      testApp.app.get(RootLogger).pino.level = 'silent';
    }
    await flush();

    const requestSpan = collector.spans.find((span) => span.attributes['http.request.id'] === requestId);
    expect(requestSpan).toBeDefined();
    const parent = requestSpan as ReceivedSpan;
    expect(parent).toMatchObject({
      name: `GET ${CHECK_ROUTE}`,
      kind: SERVER,
      parentSpanId: undefined,
      attributes: { 'http.route': CHECK_ROUTE, 'http.response.status_code': 200, 'http.request.method': 'GET', 'url.path': CHECK_ROUTE },
    });
    const statements = spansOf(parent.traceId).filter((span) => span.parentSpanId === parent.spanId && span.attributes['db.system.name'] === 'postgresql');
    expect(statements.length).toBeGreaterThanOrEqual(1);
    expect(statements[0]).toMatchObject({ kind: CLIENT, name: 'SELECT', attributes: { 'db.operation.name': 'SELECT' } });
    expect(String(statements[0].attributes['db.query.text'])).toMatch(/FROM\s+"?entitlements"?/i);
    // Statement text only: the customer's id is a parameter, never in a span.
    expect(JSON.stringify(spansOf(parent.traceId))).not.toContain('traced');

    const line = logs.lines().find((entry) => (entry.req as { id?: string } | undefined)?.id === requestId);
    expect(line).toMatchObject({ trace_id: parent.traceId, span_id: parent.spanId, route: CHECK_ROUTE });
  });

  it('traces a routed request (the framework path) and a 404 the same way', async () => {
    const routed = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ store_customer_id: 'traced_2', product_id: product.id }).expect(201);
    const missing = await testApp.http.get('/v1/no-such-route').set(bearer(tenant.testKey)).expect(404);
    await flush();
    const routedSpan = collector.spans.find((span) => span.attributes['http.request.id'] === routed.headers['x-request-id']) as ReceivedSpan;
    expect(routedSpan).toMatchObject({ name: 'POST /v1/entitlements', attributes: { 'http.route': '/v1/entitlements', 'http.response.status_code': 201 } });
    // Its statements are its children too: a create's combined read and combined write.
    const children = spansOf(routedSpan.traceId).filter((span) => span.parentSpanId === routedSpan.spanId);
    expect(children.map((span) => span.name)).toEqual(expect.arrayContaining(['SELECT', 'WITH']));
    expect(children.some((span) => /INSERT INTO entitlements/.test(String(span.attributes['db.query.text'])))).toBe(true);
    const missingSpan = collector.spans.find((span) => span.attributes['http.request.id'] === missing.headers['x-request-id']) as ReceivedSpan;
    expect(missingSpan).toMatchObject({ name: 'GET', attributes: { 'http.response.status_code': 404 } });
    expect(missingSpan.attributes['http.route']).toBeUndefined();
  });

  it('sends a webhook delivery as a span of its own', async () => {
    await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: webhooks.url('/traced'), enabled_events: ['entitlement.created'] }).expect(201);
    await grant(testApp, tenant.testKey, { store_customer_id: 'traced_3', product_id: product.id });
    await webhooks.until(() => webhooks.at('/traced').length === 1);
    let sent: ReceivedSpan | undefined;
    // The span ends just after the receiver answered: flush until it is in.
    await eventually(async () => {
      await flush();
      sent = collector.spans.find((span) => span.name === 'webhook send' && span.attributes['http.response.status_code'] === 200);
      return sent !== undefined;
    }, 30_000);
    expect(sent).toMatchObject({ kind: CLIENT, attributes: { 'webhook.event_type': 'entitlement.created', 'webhook.attempt': 1 } });
  });
});
