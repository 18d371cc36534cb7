import { DataSource } from 'typeorm';
import { PRUNE_LOCK_ID, Pruner } from '../../src/database/pruner';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { countOf, endpointOf, insertHistory } from '../support/event-history';
import { describeNeeding } from '../support/requirements';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * Growth (DESIGN §15): what outlives its retention is deleted in small batches, one instance at a
 * time, without making requests wait. Rows are written with SQL (generate_series for the large
 * table), dated in the past.
 */
describe('retention: what outlives it is pruned', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let dataSource: DataSource;

  beforeAll(async () => {
    testApp = await createTestApp({ EVENT_RETENTION: '90d' });
    await testApp.app.get(WebhookDispatcher).stop();
    testApp.app.get(Pruner).stopSchedule();
    tenant = await testApp.createTenant('pro');
    dataSource = testApp.app.get(DataSource);
  });
  afterAll(() => testApp.close());

  it('deletes events, settled deliveries and attempts past EVENT_RETENTION, keeps recent ones and events with a pending delivery', async () => {
    const endpointId = await endpointOf(testApp, tenant);
    await insertHistory(dataSource, tenant, endpointId, 'old', 30, 100);
    await insertHistory(dataSource, tenant, endpointId, 'recent', 20, 80);
    // An old event whose delivery is still pending (an endpoint that never answered): kept with it.
    await dataSource.query(`UPDATE webhook_deliveries SET status = 'pending' WHERE event_id = 'evt_old_7'`);

    const report = await testApp.app.get(Pruner).run({ batchSize: 7 });
    expect(report.ran).toBe(true);
    expect(report.deleted).toMatchObject({ webhook_delivery_attempts: 15, webhook_deliveries: 29, events: 29 });
    const remaining = (table: string, column: string, label: string) =>
      countOf(dataSource, `SELECT count(*) FROM ${table} WHERE merchant_id = $1 AND ${column} LIKE $2`, [tenant.merchantId, `evt_${label}_%`]);
    expect(await remaining('events', 'id', 'old')).toBe(1);
    expect(await remaining('webhook_deliveries', 'event_id', 'old')).toBe(1);
    expect(await remaining('webhook_delivery_attempts', 'event_id', 'old')).toBe(0);
    expect(await remaining('events', 'id', 'recent')).toBe(20);
    expect(await remaining('webhook_deliveries', 'event_id', 'recent')).toBe(20);
    expect(await remaining('webhook_delivery_attempts', 'event_id', 'recent')).toBe(10);
    // The API agrees: the recent events are listed, the old ones are gone.
    const listed = await testApp.http.get('/v1/events').query({ limit: 100 }).set(bearer(tenant.testKey)).expect(200);
    expect(listed.body.data.map((event: { id: string }) => event.id).filter((id: string) => id.startsWith('evt_old_'))).toEqual(['evt_old_7']);
  });

  it('deletes signed-out and idle sessions and used or expired setup links, keeps live ones', async () => {
    const email = `prune-${Date.now()}@example.com`;
    const created = await testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email }).expect(201);
    const userId = created.body.data.id as string;
    await dataSource.query(
      `INSERT INTO dashboard_sessions (id, token_hash, user_id, merchant_id, csrf_token, last_seen_at, ended_at, checksummed)
       VALUES ('sess_prune_ended', 'h-ended-${userId}', $1, $2, 'c', now(), now() - interval '1 minute', true),
              ('sess_prune_idle', 'h-idle-${userId}', $1, $2, 'c', now() - interval '13 hours', null, true),
              ('sess_prune_live', 'h-live-${userId}', $1, $2, 'c', now() - interval '11 hours', null, true)`,
      [userId, tenant.merchantId],
    );
    await dataSource.query(
      `INSERT INTO dashboard_setup_links (token_hash, user_id, expires_at, used_at)
       VALUES ('l-used-${userId}', $1, now() + interval '1 hour', now()), ('l-expired-${userId}', $1, now() - interval '1 minute', null)`,
      [userId],
    );
    await testApp.app.get(Pruner).run();
    const sessions = await dataSource.query(`SELECT id FROM dashboard_sessions WHERE user_id = $1 ORDER BY id`, [userId]);
    expect(sessions.map((row: { id: string }) => row.id)).toEqual(['sess_prune_live']);
    // The link the admin API just made is fresh and unused: the only one left.
    expect(await countOf(dataSource, `SELECT count(*) FROM dashboard_setup_links WHERE user_id = $1`, [userId])).toBe(1);
  });

  it('EVENT_RETENTION=0 keeps events for ever (the other prunes still run)', async () => {
    const keeping = await createTestApp({ EVENT_RETENTION: '0' });
    try {
      await keeping.app.get(WebhookDispatcher).stop();
      keeping.app.get(Pruner).stopSchedule();
      const own = await keeping.createTenant('pro');
      const endpointId = await endpointOf(keeping, own);
      await insertHistory(keeping.app.get(DataSource), own, endpointId, 'kept', 5, 400);
      const report = await keeping.app.get(Pruner).run();
      expect(Object.keys(report.deleted)).toEqual(expect.arrayContaining(['idempotency_keys', 'dashboard_sessions', 'dashboard_setup_links']));
      expect(Object.keys(report.deleted)).not.toContain('events');
      expect(await countOf(keeping.app.get(DataSource), `SELECT count(*) FROM events WHERE merchant_id = $1`, [own.merchantId])).toBe(5);
    } finally {
      await keeping.close();
    }
  });
});

/** Instances share a database only on PostgreSQL. */
describeNeeding(['postgresql'], 'retention: one instance at a time', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp({ EVENT_RETENTION: '90d' });
    second = await createTestApp({ EVENT_RETENTION: '90d' });
    for (const app of [first, second]) {
      await app.app.get(WebhookDispatcher).stop();
      app.app.get(Pruner).stopSchedule();
    }
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('leaves the round to the instance holding the pruning lock, and two instances at once delete each row once', async () => {
    const tenant = await first.createTenant('pro');
    const endpointId = await endpointOf(first, tenant);
    const dataSource = first.app.get(DataSource);
    await insertHistory(dataSource, tenant, endpointId, 'shared', 300, 120, 300);

    // Another instance in the middle of a batch holds the transaction-level lock: this one does nothing.
    const queryRunner = dataSource.createQueryRunner();
    await queryRunner.connect();
    await queryRunner.startTransaction();
    try {
      await queryRunner.query('SELECT pg_advisory_xact_lock($1)', [PRUNE_LOCK_ID]);
      const skipped = await second.app.get(Pruner).run();
      expect(skipped.ran).toBe(false);
      expect(await countOf(dataSource, `SELECT count(*) FROM events WHERE merchant_id = $1`, [tenant.merchantId])).toBe(300);
    } finally {
      await queryRunner.rollbackTransaction();
      await queryRunner.release();
    }

    // Both at once, in small batches: whichever holds the lock for a batch deletes it. The database
    // is the whole test run's, so other suites' old rows count too: compare with all that was due.
    const dueBefore = {
      // An event with a pending delivery is kept (the first suite above leaves one).
      events: await countOf(dataSource, `SELECT count(*) FROM events e WHERE created_at < now() - interval '90 days' AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')`, []),
      webhook_delivery_attempts: await countOf(dataSource, `SELECT count(*) FROM webhook_delivery_attempts WHERE attempted_at < now() - interval '90 days'`, []),
    };
    const reports = await Promise.all([first.app.get(Pruner).run({ batchSize: 20 }), second.app.get(Pruner).run({ batchSize: 20 })]);
    // Whoever was left out of a round stops; one more run finishes what is left.
    reports.push(await first.app.get(Pruner).run());
    const sum = (name: string) => reports.reduce((total, report) => total + (report.deleted[name] ?? 0), 0);
    expect({ events: sum('events'), webhook_delivery_attempts: sum('webhook_delivery_attempts') }).toEqual(dueBefore);
    expect(await countOf(dataSource, `SELECT count(*) FROM events WHERE merchant_id = $1`, [tenant.merchantId])).toBe(0);
    expect(await countOf(dataSource, `SELECT count(*) FROM webhook_deliveries WHERE merchant_id = $1`, [tenant.merchantId])).toBe(0);
    expect(await countOf(dataSource, `SELECT count(*) FROM webhook_delivery_attempts WHERE merchant_id = $1`, [tenant.merchantId])).toBe(0);
  });
});
