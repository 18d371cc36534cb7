import type { ApiMode } from '../../src/database/tenant';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { EVENT_TYPES, EventType } from '../../src/database/domain-event';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { verifyWebhook, WebhookReceiver } from '../support/webhook-receiver';
import { untilDeliveriesSettled } from '../support/webhook-deliveries';

describe('webhooks: endpoints and delivery', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;
  let pathCounter = 0;

  const nextPath = () => `/hook-${(pathCounter += 1)}`;

  async function publish(type: EventType, object: Record<string, unknown>, mode: ApiMode = 'test', merchantId = tenant.merchantId): Promise<void> {
    await testApp.app.get(UnitOfWork).run(async ({ publish: record }) => record(type, { merchantId, mode }, object));
  }

  async function createEndpoint(path: string, enabledEvents: string[] = ['*'], key = tenant.testKey) {
    const response = await testApp.http
      .post('/v1/webhook-endpoints')
      .set(bearer(key))
      .send({ url: receiver.url(path), enabled_events: enabledEvents, description: 'test receiver' })
      .expect(201);
    return response.body.data as { id: string; secret: string; url: string };
  }

  const settled = (endpointId: string) => untilDeliveriesSettled(testApp, [endpointId]);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    testApp = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms' });
    tenant = await testApp.createTenant();
  });
  afterAll(async () => {
    await testApp.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.behaviour = () => ({ status: 200, body: 'ok' });
  });

  it('manages endpoints: secret only on create, never listed, PATCH, 404s, DELETE', async () => {
    const created = await createEndpoint(nextPath(), ['entitlement.revoked', 'entitlement.revoked']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created).toMatchObject({ enabled_events: ['entitlement.revoked'], disabled: false, disabled_reason: null, livemode: false, description: 'test receiver' });

    const read = await testApp.http.get(`/v1/webhook-endpoints/${created.id}`).set(bearer(tenant.testKey)).expect(200);
    expect(read.body.data.secret).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    const list = await testApp.http.get('/v1/webhook-endpoints?limit=100').set(bearer(tenant.testKey)).expect(200);
    expect(list.body.pagination.total).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');

    const patched = await testApp.http
      .patch(`/v1/webhook-endpoints/${created.id}`)
      .set(bearer(tenant.testKey))
      .send({ enabled_events: ['*', 'product.created'], description: null, disabled: true })
      .expect(200);
    expect(patched.body.data).toMatchObject({ enabled_events: ['*'], description: null, disabled: true, disabled_reason: 'manual' });

    const invalid = await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: receiver.url(), enabled_events: ['nope.happened'] }).expect(400);
    expect(invalid.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'enabled_events' });
    const missing = await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ enabled_events: ['*'] }).expect(400);
    expect(missing.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'url' });
    const liveHttp = await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.liveKey)).send({ url: receiver.url(), enabled_events: ['*'] }).expect(400);
    expect(liveHttp.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'url' });

    // Other mode and other merchant: 404; malformed ids: 404.
    const other = await testApp.createTenant();
    await testApp.http.get(`/v1/webhook-endpoints/${created.id}`).set(bearer(tenant.liveKey)).expect(404);
    await testApp.http.get(`/v1/webhook-endpoints/${created.id}`).set(bearer(other.testKey)).expect(404);
    for (const id of ['nope', 'we_', 'evt_01jd8x3k2m4n5p6q7r8s9t0v1w', `we_${'z'.repeat(200)}`]) {
      const response = await testApp.http.get(`/v1/webhook-endpoints/${encodeURIComponent(id)}`).set(bearer(tenant.testKey)).expect(404);
      expect(response.body.error.code).toBe('WEBHOOK_ENDPOINT_NOT_FOUND');
    }
    const readOnly = await testApp.createKey(tenant.merchantId, 'test', ['events:read']);
    await testApp.http.get('/v1/webhook-endpoints').set(bearer(readOnly)).expect(403);

    await testApp.http.delete(`/v1/webhook-endpoints/${created.id}`).set(bearer(tenant.testKey)).expect(200, /"deleted":true/);
    await testApp.http.delete(`/v1/webhook-endpoints/${created.id}`).set(bearer(tenant.testKey)).expect(404);
  });

  it('delivers every event type, signed (verified with standardwebhooks), with the documented payload', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path);
    for (const type of EVENT_TYPES) await publish(type, { id: `obj_${type}`, kind: type });
    await receiver.until(() => receiver.at(path).length >= EVENT_TYPES.length);
    const received = receiver.at(path);
    // Each event is of its own object, so they may arrive in any order (DESIGN §8 orders per object).
    expect(received.map((entry) => JSON.parse(entry.body).type).sort()).toEqual([...EVENT_TYPES].sort());
    for (const entry of received) {
      const payload = verifyWebhook(endpoint.secret, entry) as Record<string, unknown>;
      expect(Object.keys(payload).sort()).toEqual(['created_at', 'data', 'id', 'livemode', 'type']);
      expect(payload).toMatchObject({ id: entry.headers['webhook-id'], livemode: false, data: { object: { id: `obj_${payload.type}` } } });
      expect(entry.headers['content-type']).toContain('application/json');
      expect(Number(entry.headers['webhook-timestamp'])).toBeGreaterThan(1_700_000_000);
      // The delivered body is the event as the API shows it.
      const fromApi = await testApp.http.get(`/v1/events/${entry.headers['webhook-id']}`).set(bearer(tenant.testKey)).expect(200);
      expect(fromApi.body.data).toEqual(payload);
    }
    // A wrong secret fails verification (the check is real).
    expect(() => verifyWebhook('whsec_' + Buffer.alloc(32, 1).toString('base64'), received[0])).toThrow();
  });

  it('queues, from one transaction that publishes several types, only the types an endpoint subscribes to', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path, ['entitlement.revoked']);
    await testApp.app.get(UnitOfWork).run(async ({ publish: record }) => {
      const own = { merchantId: tenant.merchantId, mode: 'test' as const };
      await record('product.created', own, { id: 'prod_mixed' });
      await record('entitlement.revoked', own, { id: 'ent_mixed' });
      await record('file.uploaded', own, { id: 'file_mixed' });
    });
    await settled(endpoint.id);
    const received = receiver.at(path).map((entry) => JSON.parse(entry.body) as { type: string; data: { object: { id: string } } });
    expect(received.map((event) => [event.type, event.data.object.id])).toEqual([['entitlement.revoked', 'ent_mixed']]);
    // All three are in the log, in publishing order.
    const logged = await testApp.http.get('/v1/events?limit=3').set(bearer(tenant.testKey)).expect(200);
    expect((logged.body.data as Array<{ type: string }>).map((event) => event.type).reverse()).toEqual(['product.created', 'entitlement.revoked', 'file.uploaded']);
  });

  it('delivers a verifiable entitlement.revoked when an entitlement is revoked through the API', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path, ['entitlement.revoked', 'product.created']);
    const product = await testApp.http
      .post('/v1/products')
      .set(bearer(tenant.testKey))
      .send({ name: 'Webhook product', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Enjoy' } })
      .expect(201);
    const entitlement = await testApp.http
      .post('/v1/entitlements')
      .set(bearer(tenant.testKey))
      .send({ product_id: product.body.data.id, store_customer_id: 'webhook_customer' })
      .expect(201);
    const revoked = await testApp.http.post(`/v1/entitlements/${entitlement.body.data.id}/revoke`).set(bearer(tenant.testKey)).send({}).expect(200);
    await receiver.until(() => receiver.at(path).length >= 2);
    await settled(endpoint.id);
    const [created, revocation] = receiver.at(path).map((entry) => verifyWebhook(endpoint.secret, entry) as { type: string; data: { object: unknown } });
    expect(created).toMatchObject({ type: 'product.created', data: { object: { id: product.body.data.id } } });
    expect(revocation.type).toBe('entitlement.revoked');
    expect(revocation.data.object).toEqual(revoked.body.data);
  });

  it('sends only subscribed types, only to the tenant and mode of the event', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path, ['product.created']);
    const other = await testApp.createTenant();
    await publish('product.updated', { id: 'p1' });
    await publish('product.created', { id: 'p1' }, 'live');
    await publish('product.created', { id: 'p1' }, 'test', other.merchantId);
    await publish('product.created', { id: 'p2' });
    await receiver.until(() => receiver.at(path).length >= 1);
    await settled(endpoint.id);
    expect(receiver.at(path).map((entry) => JSON.parse(entry.body).data.object.id)).toEqual(['p2']);
  });

  it('retries a failing receiver on schedule: three attempts with the same webhook-id, recorded', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path);
    receiver.behaviour = (_request, count) => (count <= 2 ? { status: 500, body: 'x'.repeat(3000) } : { status: 204 });
    await publish('entitlement.revoked', { id: 'ent_retry' });
    await receiver.until(() => receiver.at(path).length >= 3);
    await settled(endpoint.id);
    const attempts = receiver.at(path);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((entry) => entry.headers['webhook-id'])).size).toBe(1);
    for (const entry of attempts) verifyWebhook(endpoint.secret, entry);

    const deliveries = await testApp.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(bearer(tenant.testKey)).expect(200);
    expect(deliveries.body.pagination.total).toBe(3);
    const [third, second, first] = deliveries.body.data;
    expect(first).toMatchObject({ attempt: 1, succeeded: false, status_code: 500, event_id: attempts[0].headers['webhook-id'], event_type: 'entitlement.revoked' });
    expect(first.response_body).toHaveLength(1024);
    expect(first.error).toContain('500');
    expect(Date.parse(first.next_attempt_at) - Date.parse(first.attempted_at)).toBeGreaterThanOrEqual(80);
    expect(second).toMatchObject({ attempt: 2, succeeded: false, status_code: 500 });
    expect(third).toMatchObject({ attempt: 3, succeeded: true, status_code: 204, error: null, next_attempt_at: null });
    expect(typeof third.duration_ms).toBe('number');
    const page = await testApp.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=2`).set(bearer(tenant.testKey)).expect(200);
    const rest = await testApp.http
      .get(`/v1/webhook-endpoints/${endpoint.id}/deliveries?limit=2&cursor=${encodeURIComponent(page.body.pagination.next_cursor)}`)
      .set(bearer(tenant.testKey))
      .expect(200);
    expect([...page.body.data, ...rest.body.data].map((item: { id: string }) => item.id)).toEqual(deliveries.body.data.map((item: { id: string }) => item.id));
  });

  it('gives up after the schedule is spent', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path);
    receiver.behaviour = () => ({ status: 503 });
    await publish('entitlement.revoked', { id: 'ent_never' });
    await receiver.until(() => receiver.at(path).length >= 4);
    await settled(endpoint.id);
    expect(receiver.at(path)).toHaveLength(4);
    const deliveries = await testApp.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(bearer(tenant.testKey)).expect(200);
    expect(deliveries.body.data[0]).toMatchObject({ attempt: 4, succeeded: false, next_attempt_at: null });
  });

  it('disables an endpoint that answers 410 and resumes when enabled again', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path);
    receiver.behaviour = () => ({ status: 410 });
    await publish('entitlement.revoked', { id: 'ent_gone' });
    await receiver.until(() => receiver.at(path).length >= 1);
    await settled(endpoint.id);
    const read = await testApp.http.get(`/v1/webhook-endpoints/${endpoint.id}`).set(bearer(tenant.testKey)).expect(200);
    expect(read.body.data).toMatchObject({ disabled: true, disabled_reason: 'endpoint_gone' });
    // While disabled nothing is queued for it.
    await publish('entitlement.revoked', { id: 'ent_while_disabled' });
    receiver.behaviour = () => ({ status: 200 });
    await testApp.http.patch(`/v1/webhook-endpoints/${endpoint.id}`).set(bearer(tenant.testKey)).send({ disabled: false }).expect(200);
    await publish('entitlement.revoked', { id: 'ent_after' });
    await receiver.until(() => receiver.at(path).length >= 2);
    await settled(endpoint.id);
    expect(receiver.at(path).map((entry) => JSON.parse(entry.body).data.object.id)).toEqual(['ent_gone', 'ent_after']);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const path = nextPath();
    const target = nextPath();
    const endpoint = await createEndpoint(path);
    receiver.behaviour = (request) => (request.path === path ? { status: 307, headers: { location: receiver.url(target) } } : { status: 200 });
    await publish('entitlement.revoked', { id: 'ent_redirect' });
    await receiver.until(() => receiver.at(path).length >= 4);
    await settled(endpoint.id);
    expect(receiver.at(target)).toHaveLength(0);
    const deliveries = await testApp.http.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`).set(bearer(tenant.testKey)).expect(200);
    expect(deliveries.body.data.every((item: { succeeded: boolean; status_code: number }) => !item.succeeded && item.status_code === 307)).toBe(true);
    expect(deliveries.body.data[0].error).toContain('not followed');
  });

  it('signs with both secrets for 24 h after a rotation', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path);
    const rotated = await testApp.http.post(`/v1/webhook-endpoints/${endpoint.id}/rotate-secret`).set(bearer(tenant.testKey)).expect(200);
    const newSecret: string = rotated.body.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    const hoursAhead = (Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()) / 3_600_000;
    expect(hoursAhead).toBeGreaterThan(23.9);
    expect(hoursAhead).toBeLessThanOrEqual(24);
    await publish('entitlement.revoked', { id: 'ent_rotated' });
    await receiver.until(() => receiver.at(path).length >= 1);
    const [entry] = receiver.at(path);
    expect(entry.headers['webhook-signature'].split(' ')).toHaveLength(2);
    verifyWebhook(newSecret, entry);
    verifyWebhook(endpoint.secret, entry);
  });

  it('redelivers an event with the same webhook-id', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path);
    await publish('entitlement.created', { id: 'ent_again' });
    await receiver.until(() => receiver.at(path).length >= 1);
    const eventId = receiver.at(path)[0].headers['webhook-id'];
    const queued = await testApp.http.post(`/v1/events/${eventId}/redeliver`).set(bearer(tenant.testKey)).send({ endpoint_id: endpoint.id }).expect(202);
    expect(queued.body.data).toEqual({ event_id: eventId, endpoint_ids: [endpoint.id] });
    await receiver.until(() => receiver.at(path).length >= 2);
    expect(receiver.at(path).map((entry) => entry.headers['webhook-id'])).toEqual([eventId, eventId]);
    verifyWebhook(endpoint.secret, receiver.at(path)[1]);
    await testApp.http.post('/v1/events/evt_01jd8x3k2m4n5p6q7r8s9t0v1w/redeliver').set(bearer(tenant.testKey)).send({}).expect(404, /EVENT_NOT_FOUND/);
    await testApp.http.post(`/v1/events/${eventId}/redeliver`).set(bearer(tenant.testKey)).send({ endpoint_id: 'we_nope' }).expect(404, /WEBHOOK_ENDPOINT_NOT_FOUND/);
  });

  it('delivers to one endpoint in event order when nothing fails', async () => {
    const path = nextPath();
    const endpoint = await createEndpoint(path);
    const count = 30;
    for (let index = 0; index < count; index += 1) await publish('product.updated', { id: 'p', sequence: index });
    await receiver.until(() => receiver.at(path).length >= count);
    await settled(endpoint.id);
    expect(receiver.at(path).map((entry) => JSON.parse(entry.body).data.object.sequence)).toEqual([...Array(count).keys()]);
  });

  it('keeps delivering to other endpoints while one endpoint is slow', async () => {
    const slowPath = nextPath();
    const fastPath = nextPath();
    const slow = await createEndpoint(slowPath);
    const fast = await createEndpoint(fastPath);
    receiver.behaviour = (request) => (request.path === slowPath ? { status: 200, delayMilliseconds: 60_000 } : { status: 200 });
    for (let index = 0; index < 5; index += 1) await publish('product.updated', { id: 'p', sequence: index });
    await receiver.until(() => receiver.at(fastPath).length >= 5 && receiver.inFlight === 1);
    // The slow endpoint's first delivery is still unanswered, and its later ones wait behind it (order).
    expect(receiver.at(slowPath)).toHaveLength(0);
    receiver.behaviour = () => ({ status: 200 });
    receiver.releaseHeld();
    await receiver.until(() => receiver.at(slowPath).length >= 5);
    await settled(slow.id);
    await settled(fast.id);
    expect(receiver.at(slowPath).map((entry) => JSON.parse(entry.body).data.object.sequence)).toEqual([0, 1, 2, 3, 4]);
  });

  it('writes no event and no delivery when the publishing transaction rolls back', async () => {
    const path = nextPath();
    await createEndpoint(path);
    const before = await testApp.http.get('/v1/events').set(bearer(tenant.testKey)).expect(200);
    await expect(
      testApp.app.get(UnitOfWork).run(async ({ publish: record }) => {
        await record('entitlement.revoked', { merchantId: tenant.merchantId, mode: 'test' }, { id: 'ent_rolled_back' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const after = await testApp.http.get('/v1/events').set(bearer(tenant.testKey)).expect(200);
    expect(after.body.pagination.total).toBe(before.body.pagination.total);
  });
});
