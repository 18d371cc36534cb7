import { DataSource } from 'typeorm';
import { Pruner } from '../../src/database/pruner';
import { DUE_SESSIONS, DUE_SETUP_LINKS } from '../../src/dashboard/dashboard-pruning.repository';
import { DUE_IDEMPOTENCY_KEYS } from '../../src/idempotency/idempotency-keys.repository';
import { DUE_ATTEMPTS, DUE_DELIVERIES, DUE_EVENTS } from '../../src/webhooks/event-retention.repository';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { freePort } from '../support/free-port';
import { HttpClient, isAnswer } from '../support/http-client';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

/**
 * Growth (DESIGN §15): what outlives its retention is deleted in small batches, one instance at a
 * time, without making requests wait. Rows are written with SQL (generate_series for the large
 * table), dated in the past.
 */
const DAY = 86_400_000;

async function endpointOf(testApp: TestApp, tenant: TestTenant): Promise<string> {
  const created = await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: 'https://hooks.example.com/in', enabled_events: ['*'] }).expect(201);
  return created.body.data.id as string;
}

/** `count` events (and as many deliveries, and half as many attempts) of the tenant's endpoint, `ageDays` old and older by a second each. */
async function insertHistory(dataSource: DataSource, tenant: TestTenant, endpointId: string, label: string, count: number, ageDays: number, attempts = Math.floor(count / 2)): Promise<void> {
  const age = `now() - make_interval(days => ${ageDays}) - g * interval '1 second'`;
  await dataSource.query(
    `INSERT INTO events (id, merchant_id, mode, type, data, created_at)
     SELECT 'evt_${label}_' || g, $1, 'test', 'entitlement.created', '{"object":{"id":"ent_history"}}'::jsonb, ${age}
     FROM generate_series(1, $2::int) g`,
    [tenant.merchantId, count],
  );
  await dataSource.query(
    `INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, status, attempt_count, next_attempt_at, created_at, updated_at)
     SELECT $1, 'test', $2, 'evt_${label}_' || g, 'succeeded', 1, ${age}, ${age}, ${age}
     FROM generate_series(1, $3::int) g`,
    [tenant.merchantId, endpointId, count],
  );
  await dataSource.query(
    `INSERT INTO webhook_delivery_attempts (id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, duration_ms, attempted_at)
     SELECT 'wd_${label}_' || g, $1, 'test', $2, 'evt_${label}_' || g, 'entitlement.created', 1, true, 200, 12, ${age}
     FROM generate_series(1, $3::int) g`,
    [tenant.merchantId, endpointId, attempts],
  );
}

const countOf = async (dataSource: DataSource, sql: string, parameters: unknown[]): Promise<number> => Number((await dataSource.query(sql, parameters))[0].count);

describe('retention: what outlives it is pruned', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let dataSource: DataSource;

  beforeAll(async () => {
    testApp = await createTestApp({ EVENT_RETENTION: '90d' });
    await testApp.app.get(WebhookDispatcher).stop();
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
      `INSERT INTO dashboard_sessions (id, token_hash, user_id, merchant_id, mode, csrf_token, last_seen_at, ended_at, checksummed)
       VALUES ('sess_prune_ended', 'h-ended-${userId}', $1, $2, 'test', 'c', now(), now() - interval '1 minute', true),
              ('sess_prune_idle', 'h-idle-${userId}', $1, $2, 'test', 'c', now() - interval '13 hours', null, true),
              ('sess_prune_live', 'h-live-${userId}', $1, $2, 'test', 'c', now() - interval '11 hours', null, true)`,
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

/**
 * A million old rows and requests all the while. Needs PostgreSQL (the embedded database is one
 * session: a prune batch and a request take turns by design), so without TEST_DATABASE_URL this
 * part is skipped locally and fails under CI.
 */
const databaseUrl = process.env.EH_TEST_DATABASE_URL;
const describeWithPostgres = databaseUrl || process.env.CI === 'true' ? describe : describe.skip;
if (!databaseUrl) process.stderr.write('\nretention: SKIPPED the million-row prune: it needs PostgreSQL (set TEST_DATABASE_URL)\n');

describeWithPostgres('retention at scale: a million old rows', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let dataSource: DataSource;
  let client: HttpClient;

  beforeAll(async () => {
    if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required under CI for the million-row prune');
    testApp = await createTestApp({ EVENT_RETENTION: '90d', LOG_LEVEL: 'error' });
    await testApp.app.get(WebhookDispatcher).stop();
    const port = await freePort();
    await testApp.app.listen(port, '127.0.0.1');
    tenant = await testApp.createTenant('pro');
    client = new HttpClient(`http://127.0.0.1:${port}`, tenant.testKey);
    dataSource = testApp.app.get(DataSource);
  });
  afterAll(() => testApp.close());

  it('prunes 1,000,000 rows by their indexes in small batches while no request waits over 1 s', async () => {
    const endpointId = await endpointOf(testApp, tenant);
    // 400,000 events, 400,000 deliveries, 200,000 attempts past the retention; 10,000 of each kind within it.
    await insertHistory(dataSource, tenant, endpointId, 'million', 400_000, 91, 200_000);
    await insertHistory(dataSource, tenant, endpointId, 'young', 10_000, 30, 10_000);
    await dataSource.query('ANALYZE events, webhook_deliveries, webhook_delivery_attempts, dashboard_sessions, dashboard_setup_links, idempotency_keys');

    // Each prune's SELECT walks its own index (a sequential scan of a million rows per batch would not do).
    const cutoff = new Date(Date.now() - 90 * DAY);
    const plans: [string, string, string[]][] = [
      ['attempts', DUE_ATTEMPTS, ['webhook_delivery_attempts_attempted_idx']],
      ['deliveries', DUE_DELIVERIES, ['webhook_deliveries_settled_created_idx']],
      ['events', DUE_EVENTS, ['events_created_idx', 'webhook_deliveries_pending_event_idx']],
    ];
    for (const [, sql, indexes] of plans) {
      const plan = ((await dataSource.query(`EXPLAIN ${sql}`, [cutoff, 1_000])) as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n');
      for (const index of indexes) expect(plan).toContain(index);
      expect(plan).not.toMatch(/Seq Scan on (events|webhook_deliveries|webhook_delivery_attempts)\b/);
    }
    // The other pruned tables are small here; with sequential scans off their plans must still find the indexes.
    await dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      for (const [sql, indexes] of [
        [DUE_SESSIONS, ['dashboard_sessions_ended_idx', 'dashboard_sessions_last_seen_idx']],
        [DUE_SETUP_LINKS, ['dashboard_setup_links_used_idx', 'dashboard_setup_links_expires_idx']],
        [DUE_IDEMPOTENCY_KEYS, ['idempotency_keys_created_idx']],
      ] as const) {
        const plan = ((await manager.query(`EXPLAIN ${sql}`, [cutoff, 1_000])) as { 'QUERY PLAN': string }[]).map((row) => row['QUERY PLAN']).join('\n');
        for (const index of indexes) expect(plan).toContain(index);
      }
    });

    const product = await client.expectData<{ id: string }>(201, 'POST', '/v1/products', { name: 'Retention load', entitlement_type: 'permanent' });
    const durations: number[] = [];
    const failures: unknown[] = [];
    let pruning = true;
    const pruned = testApp.app.get(Pruner).run().finally(() => (pruning = false));
    // Four clients at once, each a list of events (the table being pruned), a grant (which writes
    // an event and a delivery) and a check, until the prune is done.
    const clients = Array.from({ length: 4 }, async (_, clientIndex) => {
      for (let round = 0; pruning; round += 1) {
        const customer = `retention_${clientIndex}_${round}`;
        for (const [method, path, body] of [
          ['GET', '/v1/events?limit=25', undefined],
          ['POST', '/v1/entitlements', { product_id: product.id, store_customer_id: customer }],
          ['GET', `/v1/entitlements/check?store_customer_id=${customer}&product_id=${product.id}`, undefined],
        ] as const) {
          const outcome = await client.request(method, path, { body });
          if (!isAnswer(outcome) || outcome.status >= 300) failures.push(outcome);
          durations.push(outcome.milliseconds);
        }
      }
    });
    const report = await pruned;
    await Promise.all(clients);

    expect(failures).toEqual([]);
    expect(report).toMatchObject({ ran: true, deleted: { webhook_delivery_attempts: 200_000, webhook_deliveries: 400_000, events: 400_000 } });
    expect(durations.length).toBeGreaterThanOrEqual(30);
    // The bound on the requests themselves: none waited a second while the prune ran.
    expect(Math.max(...durations)).toBeLessThan(1_000);
    const left = await dataSource.query(
      `SELECT (SELECT count(*) FROM events WHERE merchant_id = $1 AND id LIKE 'evt_million_%')::int AS old_events,
              (SELECT count(*) FROM events WHERE merchant_id = $1 AND id LIKE 'evt_young_%')::int AS young_events,
              (SELECT count(*) FROM webhook_deliveries WHERE merchant_id = $1 AND event_id LIKE 'evt_young_%')::int AS young_deliveries`,
      [tenant.merchantId],
    );
    expect(left[0]).toEqual({ old_events: 0, young_events: 10_000, young_deliveries: 10_000 });
    process.stderr.write(`\nretention: pruned 1,000,000 rows; ${durations.length} requests meanwhile, slowest ${Math.round(Math.max(...durations))} ms\n`);
  }, 600_000);
});
