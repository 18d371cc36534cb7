import { UnitOfWork } from '../../src/database/unit-of-work';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository';
import { bearer, createTestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

describe('webhooks: graceful shutdown', () => {
  it('lets an in-flight delivery finish and records it before the app closes', async () => {
    const receiver = await WebhookReceiver.start();
    const testApp = await createTestApp({ WEBHOOK_RETRY_SCHEDULE: '100ms' });
    let closed = false;
    try {
      const tenant = await testApp.createTenant();
      await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: receiver.url('/slow'), enabled_events: ['*'] }).expect(201);
      const record = jest.spyOn(testApp.app.get(WebhookDeliveriesRepository), 'recordAttempts');
      receiver.behaviour = () => ({ status: 200, body: 'late ok', delayMilliseconds: 300 });
      await testApp.app.get(UnitOfWork).run(async ({ publish }) => publish('entitlement.revoked', { merchantId: tenant.merchantId, mode: 'test' }, { id: 'ent_slow' }));
      await receiver.until(() => receiver.inFlight > 0);

      await testApp.close();
      closed = true;
      expect(receiver.received).toHaveLength(1);
      expect(record).toHaveBeenCalledTimes(1);
      // recordAttempts(db, finished): one attempt, recorded.
      expect(record.mock.calls[0][1]).toEqual([expect.objectContaining({ attempt: expect.objectContaining({ succeeded: true, statusCode: 200, responseBody: 'late ok' }) })]);
      await expect(record.mock.results[0].value).resolves.toBeUndefined();
    } finally {
      if (!closed) await testApp.close();
      await receiver.close();
    }
  });
});
