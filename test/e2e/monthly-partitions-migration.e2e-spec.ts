import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/app-entities';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { EmbeddedDatabase } from '../../src/database/embedded-database';
import { MIGRATIONS } from '../../src/database/migrations';
import { MonthlyPartitions1795920000000 } from '../../src/database/migrations/1795920000000-MonthlyPartitions';
import { monthlyPartitionName, monthStart } from '../../src/database/monthly-partitions';

/**
 * The MonthlyPartitions migration moves existing rows: on a database of its own (a fresh
 * PostgreSQL database, or an in-memory embedded one) holding events, deliveries, attempts and
 * downloads of two months in the old, unpartitioned tables, `up` leaves every row in its month's
 * partition with its indexes, keys and the deliveries' id sequence; `down` puts plain tables back.
 * (An empty database is every other suite's: the template is migrated from nothing.)
 */
describe('migration MonthlyPartitions', () => {
  let dataSource: DataSource;
  let cleanUp: () => Promise<void>;
  const migrationIndex = MIGRATIONS.indexOf(MonthlyPartitions1795920000000);
  const merchant = 'mer_01jd8x3k2m4n5p6q7r8s9tpart';
  const now = new Date();
  const earlier = new Date(now.getTime() - 45 * 86_400_000);
  const TABLES = [
    ['events', 'created_at'],
    ['webhook_deliveries', 'created_at'],
    ['webhook_delivery_attempts', 'attempted_at'],
    ['downloads', 'downloaded_at'],
  ] as const;

  async function migrate(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await new MonthlyPartitions1795920000000()[direction](runner);
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  const indexesOf = async (table: string): Promise<string[]> =>
    ((await dataSource.query(`SELECT indexname FROM pg_indexes WHERE tablename = $1 ORDER BY 1`, [table])) as Array<{ indexname: string }>).map(({ indexname }) => indexname);
  const primaryKeyOf = async (table: string): Promise<string> =>
    ((await dataSource.query(`SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`, [table])) as Array<{ definition: string }>)[0]
      .definition;
  const foreignKeysOf = async (table: string): Promise<string[]> =>
    (
      (await dataSource.query(`SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f' ORDER BY 1`, [table])) as Array<{
        definition: string;
      }>
    ).map(({ definition }) => definition);
  const isPartitioned = async (table: string): Promise<boolean> =>
    ((await dataSource.query(`SELECT relkind FROM pg_class WHERE oid = $1::regclass`, [table])) as Array<{ relkind: string }>)[0].relkind === 'p';
  const rowsByPartition = async (table: string, idColumn: string): Promise<Record<string, string>> =>
    Object.fromEntries(
      ((await dataSource.query(`SELECT ${idColumn} AS id, tableoid::regclass::text AS partition FROM ${table} ORDER BY 1`)) as Array<{ id: string; partition: string }>).map(({ id, partition }) => [
        id,
        partition,
      ]),
    );

  let indexesBefore: Record<string, string[]>;
  let foreignKeysBefore: Record<string, string[]>;

  beforeAll(async () => {
    expect(migrationIndex).toBeGreaterThan(0);
    const serverUrl = process.env.EH_TEST_SERVER_URL;
    let url: string;
    let embedded: EmbeddedDatabase | null = null;
    if (serverUrl) {
      const name = `${process.env.EH_TEST_DATABASE_NAME}_partitions`;
      const admin = new Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const parsed = new URL(serverUrl);
      parsed.pathname = `/${name}`;
      url = parsed.toString();
      cleanUp = async () => {
        const dropper = new Client({ connectionString: serverUrl });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await dropper.end();
      };
    } else {
      embedded = await EmbeddedDatabase.start(null);
      url = embedded.url;
      cleanUp = () => (embedded as EmbeddedDatabase).stop();
    }
    dataSource = await new DataSource({ ...buildDataSourceOptions(url, embedded !== null, ENTITIES), migrations: MIGRATIONS.slice(0, migrationIndex) }).initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.query(`INSERT INTO merchants (id, name, plan) VALUES ($1, 'Partitioned', 'pro')`, [merchant]);
    await dataSource.query(
      `INSERT INTO webhook_endpoints (id, merchant_id, mode, url, enabled_events, secret) VALUES ('we_part', $1, 'test', 'https://hooks.example.com/in', '{*}', 'whsec_x')`,
      [merchant],
    );
    // Two events of each month, a delivery of each (ids from the sequence), an attempt and a download each.
    for (const [label, at] of [
      ['earlier', earlier],
      ['now', now],
    ] as const) {
      for (const n of [1, 2]) {
        const id = `evt_${label}_${n}`;
        await dataSource.query(`INSERT INTO events (id, merchant_id, mode, type, data, created_at) VALUES ($1, $2, 'test', 'entitlement.created', $3::jsonb, $4)`, [
          id,
          merchant,
          JSON.stringify({ object: { id: `ent_${label}_${n}` } }),
          at,
        ]);
        await dataSource.query(
          `INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, object_id, status, next_attempt_at, created_at, updated_at) VALUES ($1, 'test', 'we_part', $2, $3, 'pending', $4, $4, $4)`,
          [merchant, id, `ent_${label}_${n}`, at],
        );
        await dataSource.query(
          `INSERT INTO webhook_delivery_attempts (id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, duration_ms, attempted_at)
           VALUES ($1, $2, 'test', 'we_part', $3, 'entitlement.created', 1, false, 500, 12, $4)`,
          [`wd_${label}_${n}`, merchant, id, at],
        );
        await dataSource.query(
          `INSERT INTO downloads (id, merchant_id, mode, file_id, entitlement_id, customer_id, bytes, downloaded_at) VALUES ($1, $2, 'test', 'file_x', 'ent_x', 'cus_x', 100, $3)`,
          [`dl_${label}_${n}`, merchant, at],
        );
      }
    }
    indexesBefore = Object.fromEntries(await Promise.all(TABLES.map(async ([table]) => [table, await indexesOf(table)] as const)));
    foreignKeysBefore = Object.fromEntries(await Promise.all(TABLES.map(async ([table]) => [table, await foreignKeysOf(table)] as const)));
    await migrate('up');
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await cleanUp?.();
  });

  it('moves every row into its month, keeps the indexes, the keys to other tables and the sequence', async () => {
    const monthOf = (table: string, at: Date) => monthlyPartitionName(table, monthStart(at));
    for (const [table, column] of TABLES) {
      expect(await isPartitioned(table)).toBe(true);
      expect(await primaryKeyOf(table)).toBe(`PRIMARY KEY (id, ${column})`);
      // The same indexes by name, but the primary key's (renamed for its new columns, as TypeORM names it).
      const withoutKey = (names: string[]) => names.filter((name) => !name.startsWith('PK_'));
      expect(withoutKey(await indexesOf(table))).toEqual(withoutKey(indexesBefore[table]));
    }
    const idColumn = { events: 'id', webhook_deliveries: 'event_id', webhook_delivery_attempts: 'id', downloads: 'id' } as const;
    const prefix = { events: 'evt', webhook_deliveries: 'evt', webhook_delivery_attempts: 'wd', downloads: 'dl' } as const;
    for (const [table] of TABLES) {
      expect(await rowsByPartition(table, idColumn[table])).toEqual({
        [`${prefix[table]}_earlier_1`]: monthOf(table, earlier),
        [`${prefix[table]}_earlier_2`]: monthOf(table, earlier),
        [`${prefix[table]}_now_1`]: monthOf(table, now),
        [`${prefix[table]}_now_2`]: monthOf(table, now),
      });
    }
    // The generated column is still computed, for old rows and new ones.
    expect((await dataSource.query(`SELECT object_id FROM events WHERE id = 'evt_earlier_2'`))[0].object_id).toBe('ent_earlier_2');
    // Keys to other tables stay; the deliveries' key to events is gone (a key into a partitioned table would need its created_at).
    expect(await foreignKeysOf('events')).toEqual(foreignKeysBefore.events);
    expect(await foreignKeysOf('webhook_delivery_attempts')).toEqual(foreignKeysBefore.webhook_delivery_attempts);
    expect(await foreignKeysOf('downloads')).toEqual(foreignKeysBefore.downloads);
    expect(foreignKeysBefore.webhook_deliveries.some((definition) => definition.includes('REFERENCES events'))).toBe(true);
    expect(await foreignKeysOf('webhook_deliveries')).toEqual(foreignKeysBefore.webhook_deliveries.filter((definition) => !definition.includes('REFERENCES events')));
    // The deliveries' ids continue from the same sequence; a new row lands in this month's partition.
    const [{ max }] = await dataSource.query(`SELECT max(id)::bigint AS max FROM webhook_deliveries`);
    const [inserted] = await dataSource.query(
      `INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, object_id, next_attempt_at) VALUES ($1, 'test', 'we_part', 'evt_now_1', 'ent_now_1', now()) RETURNING id, tableoid::regclass::text AS partition`,
      [merchant],
    );
    expect(BigInt(inserted.id)).toBeGreaterThan(BigInt(max));
    expect(inserted.partition).toBe(monthOf('webhook_deliveries', new Date()));
    // A row far from any created month is kept, in the default partition.
    const [far] = await dataSource.query(
      `INSERT INTO downloads (id, merchant_id, mode, file_id, entitlement_id, customer_id, bytes, downloaded_at) VALUES ('dl_far', $1, 'test', 'f', 'e', 'c', 1, '2001-01-01') RETURNING tableoid::regclass::text AS partition`,
      [merchant],
    );
    expect(far.partition).toBe('downloads_default');
    await dataSource.query(`DELETE FROM downloads WHERE id = 'dl_far'`);
    await dataSource.query(`DELETE FROM webhook_deliveries WHERE id = $1`, [inserted.id]);
  });

  it('down puts plain tables back with every row and the deliveries\' key to events', async () => {
    await migrate('down');
    for (const [table] of TABLES) {
      expect(await isPartitioned(table)).toBe(false);
      expect(await primaryKeyOf(table)).toBe('PRIMARY KEY (id)');
      expect(await indexesOf(table)).toEqual(indexesBefore[table]);
      expect(await foreignKeysOf(table)).toEqual(foreignKeysBefore[table]);
      expect(Number((await dataSource.query(`SELECT count(*) FROM ${table}`))[0].count)).toBe(4);
    }
    // And up again, on the same rows.
    await migrate('up');
    expect(Number((await dataSource.query(`SELECT count(*) FROM events`))[0].count)).toBe(4);
  });
});
