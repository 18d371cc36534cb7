import { DataSource } from 'typeorm';
import { PartitionMaintenance } from '../../src/database/partition-maintenance';
import { createMonthlyPartition, monthlyPartitionName, monthStart } from '../../src/database/monthly-partitions';
import { Pruner } from '../../src/database/pruner';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.service';
import { endpointOf } from '../support/event-history';
import { insertProduct } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

/**
 * Time partitions (DESIGN §15): events, deliveries, attempts and downloads are partitioned by
 * month; partitions are created ahead; retention drops a month whose rows are all due, whole, and
 * deletes only the due rows of the month the cutoff falls in. On PostgreSQL and the embedded
 * database alike.
 */
const DAY = 86_400_000;
const PARTITIONED = ['events', 'webhook_deliveries', 'webhook_delivery_attempts'] as const;

const nextMonth = (month: Date, count = 1) => new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + count, 1));

describe('monthly partitions', () => {
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

  const partitionsOf = async (table: string): Promise<string[]> =>
    ((await dataSource.query(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`, [table])) as Array<{ name: string }>).map(
      ({ name }) => name,
    );
  const partitionOfRow = async (table: string, column: string, value: string): Promise<string> =>
    ((await dataSource.query(`SELECT tableoid::regclass::text AS partition FROM ${table} WHERE ${column} = $1`, [value])) as Array<{ partition: string }>)[0]?.partition;
  const createPartition = (table: string, column: string, month: Date) =>
    testApp.app.get(UnitOfWork).run((tx) => createMonthlyPartition(tx.manager, { table, column }, month));

  it('has this month, the next two and a default partition for every table, and a pruning run recreates a missing one', async () => {
    const now = new Date();
    const registered = testApp.app.get(PartitionMaintenance).tables();
    expect(registered.map(({ table }) => table).sort()).toEqual(['downloads', 'events', 'webhook_deliveries', 'webhook_delivery_attempts']);
    for (const { table } of registered) {
      expect(await partitionsOf(table)).toEqual(
        expect.arrayContaining([0, 1, 2].map((ahead) => monthlyPartitionName(table, nextMonth(monthStart(now), ahead))).concat(`${table}_default`)),
      );
    }
    // The second month ahead holds nothing yet (events are dated by the database's clock): dropped,
    // the next pruning run creates it again.
    const ahead = monthlyPartitionName('events', nextMonth(monthStart(now), 2));
    expect(Number((await dataSource.query(`SELECT count(*) FROM ${ahead}`))[0].count)).toBe(0);
    await dataSource.query(`ALTER TABLE events DETACH PARTITION ${ahead}`);
    await dataSource.query(`DROP TABLE ${ahead}`);
    expect(await partitionsOf('events')).not.toContain(ahead);
    await testApp.app.get(Pruner).run();
    expect(await partitionsOf('events')).toContain(ahead);
    // And the maintenance, asked for a month far ahead, creates it and its two successors.
    const far = new Date(Date.UTC(now.getUTCFullYear() + 3, 4, 15));
    await testApp.app.get(UnitOfWork).run((tx) => testApp.app.get(PartitionMaintenance).createAhead(tx, far));
    for (const { table } of registered) {
      const created = [0, 1, 2].map((count) => monthlyPartitionName(table, nextMonth(monthStart(far), count)));
      expect(await partitionsOf(table)).toEqual(expect.arrayContaining(created));
      for (const name of created) await dataSource.query(`DROP TABLE ${name}`);
    }
  });

  it('writes rows into their month, a row of a month without a partition into the default one, moved out when its month is created', async () => {
    const product = await insertProduct(testApp, tenant.merchantId, 'test');
    await endpointOf(testApp, tenant);
    const granted = await testApp.http.post('/v1/entitlements').set(bearer(tenant.testKey)).send({ store_customer_id: 'cust_partition', product_id: product.id }).expect(201);
    const [event] = (await dataSource.query(`SELECT id, created_at FROM events WHERE merchant_id = $1 AND object_id = $2`, [tenant.merchantId, granted.body.data.id])) as Array<{
      id: string;
      created_at: Date;
    }>;
    const month = monthStart(new Date(event.created_at));
    expect(await partitionOfRow('events', 'id', event.id)).toBe(monthlyPartitionName('events', month));
    expect(await partitionOfRow('webhook_deliveries', 'event_id', event.id)).toBe(monthlyPartitionName('webhook_deliveries', month));

    // A download dated in a month that has no partition (a clock far off): kept, in the default partition.
    const far = new Date(Date.UTC(2099, 6, 15));
    await dataSource.query(
      `INSERT INTO downloads (id, merchant_id, mode, file_id, entitlement_id, customer_id, bytes, downloaded_at) VALUES ('dl_partition_far', $1, 'test', 'file_x', 'ent_x', 'cus_x', 10, $2)`,
      [tenant.merchantId, far],
    );
    expect(await partitionOfRow('downloads', 'id', 'dl_partition_far')).toBe('downloads_default');
    expect(await createPartition('downloads', 'downloaded_at', monthStart(far))).toBe(true);
    expect(await partitionOfRow('downloads', 'id', 'dl_partition_far')).toBe('downloads_p2099_07');
    expect(await createPartition('downloads', 'downloaded_at', monthStart(far))).toBe(false);
    await dataSource.query(`DROP TABLE downloads_p2099_07`);
  });

  it('drops a month whose rows are all past EVENT_RETENTION whole, keeps a month with a pending delivery, and deletes only the due rows of the boundary month', async () => {
    const endpointId = await endpointOf(testApp, tenant);
    const now = Date.now();
    const cutoff = now - 90 * DAY;
    const whole = monthStart(new Date(now - 200 * DAY));
    const pending = monthStart(new Date(now - 140 * DAY));
    const boundary = monthStart(new Date(cutoff));
    for (const month of [whole, pending, boundary]) {
      await createPartition('events', 'created_at', month);
      await createPartition('webhook_deliveries', 'created_at', month);
      await createPartition('webhook_delivery_attempts', 'attempted_at', month);
    }
    // In the boundary month: rows just before the cutoff (due) and just after it (kept).
    const dueInBoundary = new Date(Math.max(boundary.getTime(), cutoff - DAY));
    const keptInBoundary = new Date(Math.min(nextMonth(boundary).getTime() - 1, cutoff + DAY));
    const history = async (label: string, at: Date, count: number, status = 'succeeded') => {
      const parameters = [tenant.merchantId, endpointId, at, count, status];
      await dataSource.query(
        `INSERT INTO events (id, merchant_id, mode, type, data, created_at)
         SELECT 'evt_part_${label}_' || g, $1, 'test', 'entitlement.created', '{"object":{"id":"ent_part"}}'::jsonb, $2::timestamptz FROM generate_series(1, $3::int) g`,
        [tenant.merchantId, at, count],
      );
      await dataSource.query(
        `INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, object_id, status, attempt_count, next_attempt_at, created_at, updated_at)
         SELECT $1, 'test', $2, 'evt_part_${label}_' || g, 'ent_part', $5, 1, $3, $3, $3 FROM generate_series(1, $4::int) g`,
        parameters,
      );
      await dataSource.query(
        `INSERT INTO webhook_delivery_attempts (id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, duration_ms, attempted_at)
         SELECT 'wd_part_${label}_' || g, $1, 'test', $2, 'evt_part_${label}_' || g, 'entitlement.created', 1, true, 200, 12, $3 FROM generate_series(1, $4::int) g`,
        parameters.slice(0, 4),
      );
    };
    await history('whole', new Date(whole.getTime() + 3 * DAY), 6);
    await history('pending_month', new Date(pending.getTime() + 3 * DAY), 4);
    await history('still_pending', new Date(pending.getTime() + 3 * DAY), 1, 'pending');
    await history('due', dueInBoundary, 5);
    await history('kept', keptInBoundary, 3);
    expect(await partitionOfRow('events', 'id', 'evt_part_whole_1')).toBe(monthlyPartitionName('events', whole));
    expect(await partitionOfRow('webhook_deliveries', 'event_id', 'evt_part_whole_1')).toBe(monthlyPartitionName('webhook_deliveries', whole));
    expect(await partitionOfRow('webhook_delivery_attempts', 'id', 'wd_part_whole_1')).toBe(monthlyPartitionName('webhook_delivery_attempts', whole));

    const before = await Promise.all(PARTITIONED.map(partitionsOf));
    const report = await testApp.app.get(Pruner).run({ batchSize: 2 });
    const after = await Promise.all(PARTITIONED.map(partitionsOf));
    expect(report.ran).toBe(true);

    PARTITIONED.forEach((table, index) => {
      // The whole month is gone, one partition fewer (older months of other suites' rows may go too).
      expect(before[index]).toContain(monthlyPartitionName(table, whole));
      expect(after[index]).not.toContain(monthlyPartitionName(table, whole));
      expect(after[index]).toContain(monthlyPartitionName(table, boundary));
      expect(after[index]).toContain(`${table}_default`);
    });
    // A month with a pending delivery keeps its partition (deliveries and events); its attempts go whole.
    expect(after[0]).toContain(monthlyPartitionName('events', pending));
    expect(after[1]).toContain(monthlyPartitionName('webhook_deliveries', pending));
    expect(after[2]).not.toContain(monthlyPartitionName('webhook_delivery_attempts', pending));

    const left = async (table: string, column: string, prefix: string) =>
      Number((await dataSource.query(`SELECT count(*) FROM ${table} WHERE merchant_id = $1 AND ${column} LIKE $2`, [tenant.merchantId, `${prefix}%`]))[0].count);
    const leftOf = async (label: string) => [
      await left('events', 'id', `evt_part_${label}_`),
      await left('webhook_deliveries', 'event_id', `evt_part_${label}_`),
      await left('webhook_delivery_attempts', 'id', `wd_part_${label}_`),
    ];
    expect(await leftOf('whole')).toEqual([0, 0, 0]);
    // The kept month's settled rows went row by row; the event with a pending delivery and that delivery stay.
    expect(await leftOf('pending_month')).toEqual([0, 0, 0]);
    expect(await leftOf('still_pending')).toEqual([1, 1, 0]);
    expect(await leftOf('due')).toEqual([0, 0, 0]);
    expect(await leftOf('kept')).toEqual([3, 3, 3]);
    expect(report.deleted.events).toBeGreaterThanOrEqual(6 + 4 + 5);
    expect(report.deleted.webhook_deliveries).toBeGreaterThanOrEqual(6 + 4 + 5);
    expect(report.deleted.webhook_delivery_attempts).toBeGreaterThanOrEqual(6 + 5 + 5);
  });
});
