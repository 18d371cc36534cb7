import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { StatementReporter } from '../../src/billing/statement-reporter';
import { UsageRepository } from '../../src/billing/usage.repository';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { controlClock, ControlledClock } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const GIB = 2 ** 30;
const admin = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}

/**
 * Stands in for Stripe's API on 127.0.0.1 (the real one can't be reached here): records what the
 * official library sends, and answers the first meter event 500 so the retry is exercised.
 */
async function stripeStandIn(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const body = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const server = createServer((request, response) => {
    void body(request).then((text) => {
      const form = Object.fromEntries(new URLSearchParams(text));
      received.push({ method: request.method ?? '', path: request.url ?? '', authorization: request.headers.authorization, form });
      response.setHeader('Content-Type', 'application/json');
      if (received.length === 1) {
        response.writeHead(500).end(JSON.stringify({ error: { type: 'api_error', message: 'Stand-in failure on the first attempt' } }));
        return;
      }
      response.writeHead(200).end(
        JSON.stringify({ object: 'billing.meter_event', created: 1, event_name: form.event_name, identifier: form.identifier, livemode: false, payload: {}, timestamp: Number(form.timestamp) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('Stripe Billing reports of live statements (DESIGN §17)', () => {
  let testApp: TestApp;
  let clock: ControlledClock;
  let standIn: Awaited<ReturnType<typeof stripeStandIn>>;

  beforeAll(async () => {
    standIn = await stripeStandIn();
    testApp = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_API_URL: standIn.url, STRIPE_METER_EVENT_NAME: 'overage_gib' });
    clock = controlClock(testApp, new Date('2031-09-15T08:00:00.000Z'));
  });
  afterAll(async () => {
    clock.release();
    await testApp.close();
    await new Promise((resolve) => standIn.server.close(resolve));
  });

  async function seed(tenant: TestTenant, mode: 'live' | 'test', bytes: number): Promise<void> {
    const usage = testApp.app.get(UsageRepository);
    await testApp.app.get(UnitOfWork).run((tx) => usage.chargeBandwidth(tx, { merchantId: tenant.merchantId, mode }, { month: '2031-08', bytes, includedBytes: 10 * GIB, hardCapBytes: null }));
  }

  async function liveStatement(tenant: TestTenant) {
    return (await testApp.http.get('/v1/usage/statements').set(bearer(tenant.liveKey)).expect(200)).body.data[0];
  }

  it('sends each live statement with an amount once, as a meter event identified by the statement, retried after a failure', async () => {
    const billed = await testApp.createTenant('growth');
    await testApp.http.patch(`/admin/v1/merchants/${billed.merchantId}`).set(admin).send({ stripe_customer_id: 'cus_StandIn1' }).expect(200);
    const unlinked = await testApp.createTenant('growth');
    // 3.25 GiB over in live mode: 4 GiB on the meter (a started GiB counts); test mode is never reported.
    await seed(billed, 'live', 13.25 * GIB);
    await seed(billed, 'test', 20 * GIB);
    await seed(unlinked, 'live', 11 * GIB);
    await testApp.http.post('/admin/v1/statements/close').set(admin).send({ month: '2031-08' }).expect(200);
    const statement = await liveStatement(billed);
    const mine = () => standIn.received.filter((request) => request.form.identifier === statement.id);
    const reporter = testApp.app.get(StatementReporter);

    await reporter.reportDue();
    expect(mine()).toHaveLength(1);
    const failed = await liveStatement(billed);
    expect(failed.reported_at).toBeNull();
    expect(failed.report_error).toContain('Stand-in failure');
    // Nothing is sent for a merchant without a Stripe customer; the statement says why.
    const unlinkedStatement = await liveStatement(unlinked);
    expect(standIn.received.some((request) => request.form.identifier === unlinkedStatement.id)).toBe(false);
    expect(unlinkedStatement.report_error).toContain('stripe_customer_id');

    // Not due again before WEBHOOK_RETRY_SCHEDULE's first delay (5 s), due after it.
    await reporter.reportDue();
    expect(mine()).toHaveLength(1);
    clock.advance(6_000);
    await reporter.reportDue();
    expect(mine()).toHaveLength(2);
    const reported = await liveStatement(billed);
    expect(reported).toMatchObject({ reported_at: '2031-09-15T08:00:06.000Z', report_error: null, amount: 33 });

    // Reported once: later rounds, and another close of the month, send nothing more.
    clock.advance(24 * 3_600_000);
    await reporter.reportDue();
    await testApp.http.post('/admin/v1/statements/close').set(admin).send({ month: '2031-08' }).expect(200);
    await reporter.reportDue();
    expect(mine()).toHaveLength(2);

    for (const request of mine()) {
      expect(request).toEqual({
        method: 'POST',
        path: '/v1/billing/meter_events',
        authorization: 'Bearer sk_test_standin',
        form: {
          event_name: 'overage_gib',
          identifier: statement.id,
          'payload[stripe_customer_id]': 'cus_StandIn1',
          'payload[value]': '4',
          timestamp: String(Date.parse('2031-08-31T23:59:59Z') / 1000),
        },
      });
    }
    const rows = await testApp.app.get(DataSource).query('SELECT report_attempts, next_report_at FROM usage_statements WHERE id = $1', [statement.id]);
    expect(rows).toEqual([{ report_attempts: 2, next_report_at: null }]);
  });
});
