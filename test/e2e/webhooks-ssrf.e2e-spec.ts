import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { WebhookEndpointEntity } from '../../src/webhooks/webhook-endpoint.entity';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { untilDeliveriesSettled } from '../support/webhook-deliveries';

/** Hostile webhook URLs: every one is refused at registration with 400 INVALID_PARAMETER on url. */
const HOSTILE_URLS = [
  'ftp://example.com/hook',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'gopher://example.com:70/_',
  'not a url',
  'http://127.0.0.1/hook',
  'http://127.0.0.1:9/hook',
  'http://localhost/hook',
  'http://LOCALHOST:8080/hook',
  'http://api.localhost/hook',
  'http://2130706433/hook',
  'http://0x7f000001/hook',
  'http://0177.0.0.1/hook',
  'http://0x7f.1/hook',
  'http://127.1/hook',
  'http://0.0.0.0/hook',
  'http://10.0.0.1/hook',
  'http://172.16.5.4/hook',
  'http://192.168.1.1/hook',
  'http://100.64.0.1/hook',
  'http://100.127.255.254/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.1.1/hook',
  'http://[::1]/hook',
  'http://[::]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'http://[fe80::1]/hook',
  'http://[fc00::1]/hook',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[64:ff9b::7f00:1]/hook',
  // IPv4-compatible (::/96), translated, local NAT64, 6to4, Teredo and site-local spellings (issue 22;
  // test/unit/webhook-url-ipv6-spellings.spec.ts has the full table with reasons).
  'http://[::127.0.0.1]/hook',
  'http://[::10.0.0.1]/hook',
  'http://[::169.254.169.254]/latest/meta-data/',
  'http://[::ffff:0:7f00:1]/hook',
  'http://[64:ff9b:1::a00:1]/hook',
  'http://[2002:7f00:1::]/hook',
  'http://[2001:0:a00:1::]/hook',
  'http://[fec0::1]/hook',
  'http://[ff02::1]/hook',
  'http://224.0.0.1/hook',
  'http://255.255.255.255/hook',
  'http://user:password@example.com/hook',
];

describe('webhooks: SSRF guard (WEBHOOK_ALLOW_PRIVATE_URLS=false)', () => {
  let testApp: TestApp;
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_RETRY_SCHEDULE: '100ms' });
    tenant = await testApp.createTenant();
  });
  afterAll(() => testApp.close());

  it.each(HOSTILE_URLS)('refuses %s at registration', async (url) => {
    const response = await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url, enabled_events: ['*'] }).expect(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'url' });
  });

  it('refuses hostile URLs on update too', async () => {
    const created = await testApp.http
      .post('/v1/webhook-endpoints')
      .set(bearer(tenant.testKey))
      .send({ url: 'https://hooks.example.com/in', enabled_events: ['*'] })
      .expect(201);
    const response = await testApp.http
      .patch(`/v1/webhook-endpoints/${created.body.data.id}`)
      .set(bearer(tenant.testKey))
      .send({ url: 'http://169.254.169.254/' })
      .expect(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'url' });
  });

  it('accepts public http URLs in test mode and requires https in live mode', async () => {
    await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: 'http://hooks.example.com/in', enabled_events: ['*'] }).expect(201);
    await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.liveKey)).send({ url: 'https://8.8.8.8/in', enabled_events: ['*'] }).expect(201);
    const response = await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.liveKey)).send({ url: 'http://hooks.example.com/in', enabled_events: ['*'] }).expect(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'url' });
  });

  it('checks again at send time: an endpoint pointing at loopback gets nothing and the attempt says why', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      // Written directly, as if the address had been allowed when registered (or the DNS answer changed since).
      const manager = testApp.app.get(DataSource).manager;
      const urls = [
        receiver.url('/literal'),
        receiver.url('/name').replace('127.0.0.1', 'localhost'),
        receiver.url('/compatible').replace('127.0.0.1', '[::127.0.0.1]'),
      ];
      const endpoints = [];
      for (const url of urls) {
        const created = await testApp.http
          .post('/v1/webhook-endpoints')
          .set(bearer(tenant.testKey))
          .send({ url: 'https://hooks.example.com/in', enabled_events: ['entitlement.revoked'] })
          .expect(201);
        await manager.update(WebhookEndpointEntity, { id: created.body.data.id }, { url });
        endpoints.push(created.body.data.id as string);
      }
      await testApp.app.get(UnitOfWork).run(async ({ publish }) => publish('entitlement.revoked', { merchantId: tenant.merchantId, mode: 'test' }, { id: 'ent_ssrf' }));
      for (const endpointId of endpoints) {
        await untilDeliveriesSettled(testApp, [endpointId]);
        const deliveries = await testApp.http.get(`/v1/webhook-endpoints/${endpointId}/deliveries`).set(bearer(tenant.testKey)).expect(200);
        expect(deliveries.body.data.length).toBeGreaterThanOrEqual(1);
        for (const attempt of deliveries.body.data) {
          expect(attempt).toMatchObject({ succeeded: false, status_code: null });
          expect(attempt.error).toMatch(/loopback|private|reserved|IPv4-compatible/);
        }
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});
