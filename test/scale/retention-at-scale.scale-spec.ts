import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { createMonthlyPartition, monthlyPartitionName, monthStart } from '../../src/database/monthly-partitions';
import { Pruner } from '../../src/database/pruner';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { DUE_SESSIONS, DUE_SETUP_LINKS } from '../../src/dashboard/dashboard-pruning.repository';
import { DUE_IDEMPOTENCY_KEYS } from '../../src/idempotency/idempotency-keys.repository';
import { DUE_ATTEMPTS, DUE_DELIVERIES, DUE_EVENTS } from '../../src/webhooks/event-retention.repository';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { endpointOf, insertHistory } from '../support/event-history';
import { freePort } from '../support/free-port';
import { HttpClient, isAnswer } from '../support/http-client';
import { describeNeeding } from '../support/requirements';
import { createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * A million rows past EVENT_RETENTION, pruned while clients keep working (DESIGN §15, issues 22
 * and 36): the million are months old, in monthly partitions that are due whole, so the prune
 * drops those partitions (detach + drop, an instant each) instead of deleting them row by row; the
 * rows of the month the cutoff falls in would still be deleted in batches, each walking its index.
 * No request waits a second. Needs PostgreSQL (the embedded database is one session: a prune
 * batch and a request take turns by design).
 */
const DAY = 86_400_000;
/** A client's round (a grant, a check, an event list) starts at most this often: ~25 rounds a second each. */
const ROUND_MILLISECONDS = 40;

type Plan = { 'QUERY PLAN': string }[];
const planText = (rows: Plan) => rows.map((row) => row['QUERY PLAN']).join('\n');

describeNeeding(['postgresql'], 'retention at scale: a million old rows', () => {
  let testApp: TestApp;
  let historic: TestTenant;
  let other: TestTenant;
  let dataSource: DataSource;
  let port: number;

  beforeAll(async () => {
    testApp = await createTestApp({ EVENT_RETENTION: '90d', LOG_LEVEL: 'error' });
    await testApp.app.get(WebhookDispatcher).stop();
    testApp.app.get(Pruner).stopSchedule();
    port = await freePort();
    await testApp.app.listen(port, '127.0.0.1');
    historic = await testApp.createTenant('pro');
    other = await testApp.createTenant('pro');
    dataSource = testApp.app.get(DataSource);
  });
  afterAll(() => testApp.close());

  it('prunes 1,000,000 rows, months due whole dropped, while no request waits a second', async () => {
    const endpointId = await endpointOf(testApp, historic);
    // 400,000 events, 400,000 deliveries, 200,000 attempts past the retention (130 days old, and
    // 4.6 days older for the last: one or two months that end before the cutoff, partitioned as
    // the pruner would have made them); 10,000 of each kind within it.
    const oldest = new Date(Date.now() - (130 * DAY + 400_000 * 1_000));
    const months = [...new Set([monthStart(oldest), monthStart(new Date(Date.now() - 130 * DAY))].map((month) => month.getTime()))].map((time) => new Date(time));
    for (const month of months) {
      await testApp.app.get(UnitOfWork).run(async (tx) => {
        await createMonthlyPartition(tx.manager, { table: 'events', column: 'created_at' }, month);
        await createMonthlyPartition(tx.manager, { table: 'webhook_deliveries', column: 'created_at' }, month);
        await createMonthlyPartition(tx.manager, { table: 'webhook_delivery_attempts', column: 'attempted_at' }, month);
      });
    }
    await insertHistory(dataSource, historic, endpointId, 'million', 400_000, 130, 200_000);
    await insertHistory(dataSource, historic, endpointId, 'young', 10_000, 30, 10_000);
    await dataSource.query('ANALYZE events, webhook_deliveries, webhook_delivery_attempts, dashboard_sessions, dashboard_setup_links, idempotency_keys');

    // Were they deleted row by row (a month with a pending delivery, the boundary month), each
    // prune's SELECT would walk its own index in each partition (a partition's copy of the
    // table's index, named by PostgreSQL): a sequential scan of a million rows per batch would not do.
    const cutoff = new Date(Date.now() - 90 * DAY);
    for (const [sql, table] of [
      [DUE_ATTEMPTS, 'webhook_delivery_attempts'],
      [DUE_DELIVERIES, 'webhook_deliveries'],
      [DUE_EVENTS, 'events'],
    ] as const) {
      const plan = planText(await dataSource.query(`EXPLAIN ${sql}`, [cutoff, 1_000]));
      for (const month of months) {
        const partition = monthlyPartitionName(table, month);
        expect(plan).toMatch(new RegExp(`Index (Only )?Scan (Backward )?using \\S+ on ${partition}\\b`));
        expect(plan).not.toContain(`Seq Scan on ${partition}`);
      }
    }
    const partitionsOf = async (table: string): Promise<string[]> =>
      ((await dataSource.query(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, [table])) as Array<{ name: string }>).map(
        ({ name }) => name,
      );
    for (const month of months) expect(await partitionsOf('events')).toContain(monthlyPartitionName('events', month));
    // The other pruned tables are small here; with sequential scans off their plans must still find their indexes.
    await dataSource.transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      for (const [sql, indexes] of [
        [DUE_SESSIONS, ['dashboard_sessions_ended_idx', 'dashboard_sessions_last_seen_idx']],
        [DUE_SETUP_LINKS, ['dashboard_setup_links_used_idx', 'dashboard_setup_links_expires_idx']],
        [DUE_IDEMPOTENCY_KEYS, ['idempotency_keys_created_idx']],
      ] as const) {
        const plan = planText(await manager.query(`EXPLAIN ${sql}`, [cutoff, 1_000]));
        for (const index of indexes) expect(plan).toContain(index);
      }
    });

    // Clients of both merchants: the one whose history is pruned, and another one whose event list
    // is read too (not the first's: listing 400,000 events counts them all for pagination.total,
    // prune or not).
    const clients = [historic, other].map((tenant) => ({ tenant, http: new HttpClient(`http://127.0.0.1:${port}`, tenant.testKey, true) }));
    const products = await Promise.all(clients.map(({ http }) => http.expectData<{ id: string }>(201, 'POST', '/v1/products', { name: 'Retention load', entitlement_type: 'permanent' })));
    const failures: unknown[] = [];
    /**
     * The clients' requests, the same mix, for as long as `going()` says; the slowest of each kind.
     * Each client starts a round at most every ROUND_MILLISECONDS: a steady load, so the prune's
     * share of the machine does not shrink as requests get faster.
     */
    const drive = async (going: () => boolean): Promise<Map<string, number>> => {
      const slowest = new Map<string, number>();
      await Promise.all(
        clients.map(async ({ tenant, http }, clientIndex) => {
          for (let round = 0; going(); round += 1) {
            const roundStarted = performance.now();
            const customer = `retention_${clientIndex}_${round}_${Math.random().toString(36).slice(2, 6)}`;
            const requests: [string, string, string, unknown][] = [
              ['grant', 'POST', '/v1/entitlements', { product_id: products[clientIndex].id, store_customer_id: customer }],
              ['check', 'GET', `/v1/entitlements/check?store_customer_id=${customer}&product_id=${products[clientIndex].id}`, undefined],
            ];
            if (tenant === other) requests.push(['events', 'GET', '/v1/events?limit=25', undefined]);
            for (const [kind, method, path, body] of requests) {
              const outcome = await http.request(method, path, { body });
              if (!isAnswer(outcome) || outcome.status >= 300) failures.push(outcome);
              slowest.set(kind, Math.max(slowest.get(kind) ?? 0, outcome.milliseconds));
            }
            const rest = ROUND_MILLISECONDS - (performance.now() - roundStarted);
            if (rest > 0) await sleep(rest);
          }
        }),
      );
      return slowest;
    };
    // The same load for 15 s without a prune first: what this machine gives anyway (printed, for scale).
    const baselineEnds = performance.now() + 15_000;
    const baseline = await drive(() => performance.now() < baselineEnds);

    let pruning = true;
    const startedAt = performance.now();
    const pruned = testApp.app.get(Pruner).run().finally(() => (pruning = false));
    const load = drive(() => pruning);
    const report = await pruned;
    const prunedInSeconds = (performance.now() - startedAt) / 1000;
    const slowest = await load;
    await Promise.all(clients.map(({ http }) => http.close()));

    const rounded = (map: Map<string, number>) => JSON.stringify(Object.fromEntries([...map].map(([kind, ms]) => [kind, Math.round(ms)])));
    process.stderr.write(
      `\nretention at scale: pruned ${JSON.stringify(report.deleted)} in ${prunedInSeconds.toFixed(0)} s; slowest request per kind (ms) while pruning ${rounded(slowest)}, without ${rounded(baseline)}\n`,
    );
    expect(failures).toEqual([]);
    expect(report).toMatchObject({ ran: true, deleted: { webhook_delivery_attempts: 200_000, webhook_deliveries: 400_000, events: 400_000 } });
    // Dropped whole: the months' partitions are gone.
    for (const table of ['events', 'webhook_deliveries', 'webhook_delivery_attempts']) {
      for (const month of months) expect(await partitionsOf(table)).not.toContain(monthlyPartitionName(table, month));
    }
    // The issue's bound, on the requests' own durations: none waited a second while the prune ran.
    expect([...slowest.values()].every((milliseconds) => milliseconds < 1_000)).toBe(true);
    const [left] = await dataSource.query(
      `SELECT (SELECT count(*) FROM events WHERE merchant_id = $1 AND id LIKE 'evt_million_%')::int AS old_events,
              (SELECT count(*) FROM events WHERE merchant_id = $1 AND id LIKE 'evt_young_%')::int AS young_events,
              (SELECT count(*) FROM webhook_deliveries WHERE merchant_id = $1 AND event_id LIKE 'evt_young_%')::int AS young_deliveries,
              (SELECT count(*) FROM webhook_delivery_attempts WHERE merchant_id = $1 AND event_id LIKE 'evt_young_%')::int AS young_attempts`,
      [historic.merchantId],
    );
    expect(left).toEqual({ old_events: 0, young_events: 10_000, young_deliveries: 10_000, young_attempts: 10_000 });
  }, 900_000);
});
