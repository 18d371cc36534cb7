import { eventually } from '../support/eventually';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Attempt {
  id: string;
  endpoint_id: string;
  succeeded: boolean;
}

/**
 * GET /v1/webhook-deliveries (issue 34 item 5): the delivery log across endpoints, filterable by
 * endpoint and to failures; one merchant's and one mode's only.
 */
describe('the delivery log across endpoints', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let receiver: WebhookReceiver;
  let good: { id: string };
  let bad: { id: string };
  const key = () => bearer(tenant.testKey);
  const list = async (query: Record<string, string>, as = key()): Promise<{ data: Attempt[]; pagination: { total: number } }> =>
    (await testApp.http.get('/v1/webhook-deliveries').query(query).set(as).expect(200)).body;

  beforeAll(async () => {
    testApp = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '1h' });
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
    receiver = await WebhookReceiver.start();
    receiver.behaviour = (request) => (request.path.startsWith('/bad') ? { status: 500, body: 'no' } : { status: 200, body: 'ok' });
    const hook = async (path: string) => (await testApp.http.post('/v1/webhook-endpoints').set(key()).send({ url: receiver.url(path), enabled_events: ['product.created'] }).expect(201)).body.data;
    good = await hook('/good');
    bad = await hook('/bad');
    await testApp.http.post('/v1/products').set(key()).send({ name: 'Announced', entitlement_type: 'permanent' }).expect(201);
    await eventually(async () => (await list({})).pagination.total >= 2, 15_000, 100);
  });
  afterAll(async () => {
    await receiver.close();
    await testApp.close();
  });

  it('lists attempts to every endpoint, by endpoint, and only failures or successes', async () => {
    const all = await list({});
    expect(new Set(all.data.map((attempt) => attempt.endpoint_id))).toEqual(new Set([good.id, bad.id]));
    const failed = await list({ status: 'failed' });
    expect(failed.data.length).toBeGreaterThan(0);
    expect(failed.data.every((attempt) => attempt.endpoint_id === bad.id && !attempt.succeeded)).toBe(true);
    const succeeded = await list({ status: 'succeeded' });
    expect(succeeded.data.every((attempt) => attempt.endpoint_id === good.id && attempt.succeeded)).toBe(true);
    expect((await list({ endpoint_id: good.id })).data.every((attempt) => attempt.endpoint_id === good.id)).toBe(true);
    expect((await list({ endpoint_id: good.id, status: 'failed' })).data).toEqual([]);
  });

  it("refuses a bad status, another merchant's endpoint, and a key without webhooks:read; shows nothing of another tenant or mode", async () => {
    expect((await testApp.http.get('/v1/webhook-deliveries').query({ status: 'gone' }).set(key()).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
    expect((await testApp.http.get('/v1/webhook-deliveries').query({ endpoint_id: good.id }).set(bearer(other.testKey)).expect(404)).body.error.code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect((await testApp.http.get('/v1/webhook-deliveries').query({ endpoint_id: good.id }).set(bearer(tenant.liveKey)).expect(404)).body.error.code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    expect((await list({}, bearer(other.testKey))).data).toEqual([]);
    expect((await list({}, bearer(tenant.liveKey))).data).toEqual([]);
    const eventsOnly = await testApp.createKey(tenant.merchantId, 'test', ['events:read']);
    expect((await testApp.http.get('/v1/webhook-deliveries').set(bearer(eventsOnly)).expect(403)).body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});
