import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { verifyWebhook, WebhookReceiver } from '../support/webhook-receiver';

/** POST /v1/webhook-endpoints/{id}/test (issue 24 item 5): one signed event, now, to one endpoint, its attempt listed with the rest. */
describe('webhook test sends', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;
  const key = () => bearer(tenant.testKey);

  async function endpointAt(path: string, body: Record<string, unknown> = {}): Promise<{ id: string; secret: string }> {
    return (await testApp.http.post('/v1/webhook-endpoints').set(key()).send({ url: receiver.url(path), enabled_events: ['entitlement.created'], ...body }).expect(201)).body.data;
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await testApp.close();
  });

  it('sends one signed webhook_endpoint.test event to that endpoint only and answers with the attempt, listed with the others', async () => {
    const endpoint = await endpointAt('/tested');
    const bystander = await endpointAt('/bystander', { enabled_events: ['*'] });
    const sent = await testApp.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(key()).expect(200);
    expect(sent.body.data).toEqual({
      id: expect.stringMatching(/^wd_/),
      endpoint_id: endpoint.id,
      event_id: expect.stringMatching(/^evt_/),
      event_type: 'webhook_endpoint.test',
      attempt: 1,
      succeeded: true,
      status_code: 200,
      error: null,
      duration_ms: expect.any(Number),
      response_body: 'ok',
      attempted_at: expect.any(String),
      next_attempt_at: null,
    });
    // Received before the answer, signed with the endpoint's secret, in the event shape.
    const [received] = receiver.at('/tested');
    expect(received.headers['webhook-id']).toBe(sent.body.data.event_id);
    const payload = verifyWebhook(endpoint.secret, received) as { id: string; type: string; livemode: boolean; data: { object: { id: string; url: string } } };
    expect(payload).toMatchObject({ id: sent.body.data.event_id, type: 'webhook_endpoint.test', livemode: false, data: { object: { id: endpoint.id, url: receiver.url('/tested') } } });
    expect(JSON.stringify(payload)).not.toContain(endpoint.secret);
    expect(receiver.at('/bystander')).toHaveLength(0);

    const attempts = await testApp.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(key()).expect(200);
    expect(attempts.body.data).toEqual([sent.body.data]);
    // Not an event of the log, and nothing queued for any endpoint.
    await testApp.http.get(`/v1/events/${sent.body.data.event_id}`).set(key()).expect(404);
    expect((await testApp.http.get(`/v1/webhook-endpoints/${bystander.id}/deliveries`).set(key()).expect(200)).body.data).toEqual([]);
  });

  it('reports the receiver\'s failure with its status code, tests a disabled endpoint, and never retries', async () => {
    const endpoint = await endpointAt('/failing');
    receiver.behaviour = (request) => (request.path === '/failing' ? { status: 503, body: 'down for maintenance' } : { status: 200, body: 'ok' });
    try {
      await testApp.http.patch(`/v1/webhook-endpoints/${endpoint.id}`).set(key()).send({ disabled: true }).expect(200);
      const sent = await testApp.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(key()).expect(200);
      expect(sent.body.data).toMatchObject({ succeeded: false, status_code: 503, error: 'HTTP 503', response_body: 'down for maintenance', next_attempt_at: null });
      // A replay with the same Idempotency-Key answers the first attempt without sending again.
      const first = await testApp.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(key()).set('Idempotency-Key', 'test-send-1').expect(200);
      const replay = await testApp.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(key()).set('Idempotency-Key', 'test-send-1').expect(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.data).toEqual(first.body.data);
      expect(receiver.at('/failing')).toHaveLength(2);
      const attempts = await testApp.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(key()).expect(200);
      expect(attempts.body.data.map((attempt: { status_code: number; next_attempt_at: string | null }) => [attempt.status_code, attempt.next_attempt_at])).toEqual([
        [503, null],
        [503, null],
      ]);
    } finally {
      receiver.behaviour = () => ({ status: 200, body: 'ok' });
    }
    // A receiver that does not answer: the error says why, with no status code.
    const nowhere = (await testApp.http.post('/v1/webhook-endpoints').set(key()).send({ url: 'http://127.0.0.1:9/nothing-listens', enabled_events: ['*'] }).expect(201)).body.data;
    const refused = await testApp.http.post(`/v1/webhook-endpoints/${nowhere.id}/test`).set(key()).expect(200);
    expect(refused.body.data).toMatchObject({ succeeded: false, status_code: null, error: expect.stringMatching(/\S/) });
  });

  it("answers 404 for another merchant's or mode's endpoint, and needs webhooks:manage", async () => {
    const endpoint = await endpointAt('/private');
    const other = await testApp.createTenant();
    for (const as of [bearer(other.testKey), bearer(tenant.liveKey)]) {
      expect((await testApp.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(as).expect(404)).body.error.code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    }
    await testApp.http.post('/v1/webhook-endpoints/we_nope/test').set(key()).expect(404);
    const reader = await testApp.createKey(tenant.merchantId, 'test', ['events:read']);
    await testApp.http.post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(bearer(reader)).expect(403);
    expect(receiver.at('/private')).toHaveLength(0);
  });
});
