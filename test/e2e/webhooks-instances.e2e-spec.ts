import { DataSource, In } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { EntitlementEntity } from '../../src/entitlements/entitlement.entity';
import { EventEntity } from '../../src/webhooks/event.entity';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { AppProcess } from '../support/app-process';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { verifyWebhook, WebhookReceiver } from '../support/webhook-receiver';
import { untilDeliveriesSettled } from '../support/webhook-deliveries';
import { describeNeeding } from '../support/requirements';

/**
 * Crash safety and several instances need one PostgreSQL database shared by processes (the
 * embedded database belongs to one process). Without TEST_DATABASE_URL these cases are skipped
 * locally and fail under CI.
 */
const databaseUrl = process.env.EH_TEST_DATABASE_URL;

const WEBHOOK_SETTINGS = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,300ms' };

describeNeeding(['postgresql'], 'webhooks: crash safety and several instances (PostgreSQL)', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required under CI for the crash-safety and multi-instance tests');
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('delivers every committed revoke at least once when the app is SIGKILLed mid-burst and restarted', async () => {
    const setupApp = await createTestApp(WEBHOOK_SETTINGS);
    let child: AppProcess | null = null;
    try {
      // This in-process app only prepares data; the child processes do all the sending.
      await setupApp.app.get(WebhookDispatcher).stop();
      const tenant: TestTenant = await setupApp.createTenant('pro');
      const endpoint = await setupApp.http
        .post('/v1/webhook-endpoints')
        .set(bearer(tenant.testKey))
        .send({ url: receiver.url('/crash'), enabled_events: ['entitlement.revoked'] })
        .expect(201);
      const product = await setupApp.http
        .post('/v1/products')
        .set(bearer(tenant.testKey))
        .send({ name: 'Crash test product', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Enjoy' } })
        .expect(201);
      const entitlementIds: string[] = [];
      for (let index = 0; index < 60; index += 1) {
        const created = await setupApp.http
          .post('/v1/entitlements')
          .set(bearer(tenant.testKey))
          .send({ product_id: product.body.data.id, store_customer_id: `crash_customer_${index}` })
          .expect(201);
        entitlementIds.push(created.body.data.id);
      }

      child = await AppProcess.start(databaseUrl as string, WEBHOOK_SETTINGS);
      const base = child.baseUrl;
      let answered = 0;
      let killed: Promise<void> | null = null;
      const crashing = child;
      const revoke = async (entitlementId: string) => {
        try {
          const response = await fetch(`${base}/v1/entitlements/${entitlementId}/revoke`, {
            method: 'POST',
            headers: { ...bearer(tenant.testKey), 'content-type': 'application/json' },
            body: '{}',
          });
          if (response.status === 200) answered += 1;
        } catch {
          // The process died under this request: it may or may not have committed.
        }
        if (answered >= 20 && !killed) killed = crashing.kill();
      };
      // Four revokes at a time until the kill lands in the middle of the burst.
      const queue = [...entitlementIds];
      await Promise.all(
        [0, 1, 2, 3].map(async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await revoke(next);
        }),
      );
      await killed;
      child = null;
      expect(answered).toBeGreaterThanOrEqual(20);
      expect(answered).toBeLessThan(entitlementIds.length);

      // The outbox is atomic with the change: a revoked entitlement has its event, and the reverse.
      const manager = setupApp.app.get(DataSource).manager;
      const revoked = await manager.count(EntitlementEntity, { where: { id: In(entitlementIds), status: 'revoked' } });
      const events = await manager.find(EventEntity, { where: { merchant_id: tenant.merchantId, type: 'entitlement.revoked' } });
      expect(events).toHaveLength(revoked);
      expect(revoked).toBeGreaterThanOrEqual(answered);

      child = await AppProcess.start(databaseUrl as string, WEBHOOK_SETTINGS);
      const committed = new Set(events.map((event) => event.id));
      await receiver.until(() => [...committed].every((id) => receiver.at('/crash').some((entry) => entry.headers['webhook-id'] === id)));
      await untilDeliveriesSettled(setupApp, [endpoint.body.data.id]);
      for (const entry of receiver.at('/crash')) verifyWebhook(endpoint.body.data.secret, entry);
      expect(new Set(receiver.at('/crash').map((entry) => entry.headers['webhook-id']))).toEqual(committed);
    } finally {
      await child?.stop();
      await setupApp.close();
    }
  }, 180_000);

  it('shares a burst of 500 events between two instances with no event delivered twice to one endpoint', async () => {
    const first = await createTestApp(WEBHOOK_SETTINGS);
    const second = await createTestApp(WEBHOOK_SETTINGS);
    try {
      const tenant = await first.createTenant('pro');
      const endpointIds: string[] = [];
      for (const path of ['/pair-a', '/pair-b']) {
        const created = await first.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: receiver.url(path), enabled_events: ['*'] }).expect(201);
        endpointIds.push(created.body.data.id);
      }
      const publishFrom = (app: TestApp, count: number, offset: number) =>
        Promise.all(
          Array.from({ length: count }, (_unused, index) =>
            app.app
              .get(UnitOfWork)
              .run(async ({ publish }) => publish('product.updated', { merchantId: tenant.merchantId, mode: 'test' }, { id: 'prod_burst', sequence: offset + index })),
          ),
        );
      await Promise.all([publishFrom(first, 250, 0), publishFrom(second, 250, 250)]);

      for (const path of ['/pair-a', '/pair-b']) await receiver.until(() => receiver.at(path).length >= 500);
      await untilDeliveriesSettled(first, endpointIds);
      for (const path of ['/pair-a', '/pair-b']) {
        const ids = receiver.at(path).map((entry) => entry.headers['webhook-id']);
        expect(ids).toHaveLength(500);
        expect(new Set(ids).size).toBe(500);
        const sequences = receiver.at(path).map((entry) => JSON.parse(entry.body).data.object.sequence as number);
        expect(new Set(sequences).size).toBe(500);
      }
    } finally {
      await second.close();
      await first.close();
    }
  }, 180_000);

  it('sends under the private-URL decision stored with the endpoint, whichever instance sends', async () => {
    // The permissive instance registers a loopback URL; only the strict one runs a dispatcher.
    const permissive = await createTestApp(WEBHOOK_SETTINGS);
    const strict = await createTestApp({ ...WEBHOOK_SETTINGS, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    try {
      await permissive.app.get(WebhookDispatcher).stop();
      const tenant = await permissive.createTenant('pro');
      const created = await permissive.http
        .post('/v1/webhook-endpoints')
        .set(bearer(tenant.testKey))
        .send({ url: receiver.url('/stored-decision'), enabled_events: ['product.created'] })
        .expect(201);
      const stored = await strict.app.get(DataSource).query('SELECT private_urls_allowed FROM webhook_endpoints WHERE id = $1', [created.body.data.id]);
      expect(stored).toEqual([{ private_urls_allowed: true }]);
      // The strict instance itself refuses the same URL for a new registration or a change.
      await strict.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: receiver.url('/refused'), enabled_events: ['*'] }).expect(400);
      await strict.http.patch(`/v1/webhook-endpoints/${created.body.data.id}`).set(bearer(tenant.testKey)).send({ url: receiver.url('/changed') }).expect(400);

      await permissive.http
        .post('/v1/products')
        .set(bearer(tenant.testKey))
        .send({ name: 'Stored decision', entitlement_type: 'permanent', fulfillment_config: { delivery_method: 'INSTRUCTIONS', access_instructions: 'Enjoy' } })
        .expect(201);
      await receiver.until(() => receiver.at('/stored-decision').length >= 1);
      await untilDeliveriesSettled(strict, [created.body.data.id]);
      const attempts = await strict.http.get(`/v1/webhook-endpoints/${created.body.data.id}/deliveries`).set(bearer(tenant.testKey)).expect(200);
      expect(attempts.body.data.map((attempt: { succeeded: boolean; error: string | null }) => [attempt.succeeded, attempt.error])).toEqual([[true, null]]);
    } finally {
      await strict.close();
      await permissive.close();
    }
  }, 60_000);
});
