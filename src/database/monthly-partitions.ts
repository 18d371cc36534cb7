import type { QueryRunner } from 'typeorm';

/**
 * Monthly range partitions (DESIGN §15 "Time partitions"): a table that only grows with time is
 * `PARTITION BY RANGE (<its time column>)`, one partition per UTC month named `<table>_pYYYY_MM`,
 * plus `<table>_default`. Retention then drops a month whole (instant, no dead rows for vacuum)
 * instead of deleting it row by row.
 *
 * How a table opts in: its owner registers it with PartitionMaintenance at module init (one line:
 * partitions are created ahead for it), one line `await partitionByMonth(queryRunner, '<table>',
 * '<column>')` in its migration (moves its rows), and its time column made a primary column of its
 * entity (a primary key of a partitioned table must include the partition key). Its retention, if
 * any, gives its prune task a `dropPartition` that calls dropOldestMonthlyPartition.
 *
 * Why a DEFAULT partition: a row whose month has no partition (the job that creates them stopped
 * for two months, a clock far off, a backfill of old history) lands there instead of failing the
 * write that carries it (an event is part of the business write that publishes it: a failed insert
 * would roll back a grant or a download). The price: creating a month's partition must first move
 * that month's rows out of the default one (createMonthlyPartition does it, in its transaction),
 * and PostgreSQL scans the default partition when a partition is added, so it must stay small:
 * rows there are pruned row by row like the boundary month's.
 */

/** A table partitioned by month on one time column. */
export interface MonthlyPartitionedTable {
  readonly table: string;
  /** The timestamptz column the rows are partitioned by (never updated: a row stays in its month). */
  readonly column: string;
}

/** Months created ahead of the current one, so the next two months' writes find their partition. */
export const MONTHS_AHEAD = 2;

/** How long dropping a partition waits for its table's lock before leaving it to the next run (requests queue behind a waiting ACCESS EXCLUSIVE lock). */
const DROP_LOCK_TIMEOUT = '200ms';

/** What runs SQL: a migration's QueryRunner or a transaction's EntityManager. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

const MONTH_PARTITION = /_p(\d{4})_(\d{2})$/;

/** The first instant (UTC) of the month of `date`. */
export function monthStart(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

function addMonths(month: Date, count: number): Date {
  return new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + count, 1));
}

/** `events_p2026_12` for December 2026. */
export function monthlyPartitionName(table: string, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function defaultPartitionName(table: string): string {
  return `${table}_default`;
}

async function rows<Row>(db: SqlRunner, sql: string, parameters: unknown[] = []): Promise<Row[]> {
  return (await db.query(sql, parameters)) as Row[];
}

/** The table's columns that an INSERT may name (not the generated ones). */
async function insertableColumns(db: SqlRunner, table: string): Promise<string[]> {
  const columns = await rows<{ name: string }>(
    db,
    `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
    [table],
  );
  return columns.map(({ name }) => `"${name}"`);
}

/** The monthly partitions of `table` (not the default one), oldest first, with the month each holds. */
export async function monthlyPartitions(db: SqlRunner, table: string): Promise<Array<{ name: string; month: Date }>> {
  const children = await rows<{ name: string }>(
    db,
    `SELECT child.relname AS name FROM pg_inherits JOIN pg_class child ON child.oid = pg_inherits.inhrelid WHERE pg_inherits.inhparent = $1::regclass`,
    [table],
  );
  return children
    .map(({ name }) => ({ name, match: MONTH_PARTITION.exec(name) }))
    .filter((child): child is { name: string; match: RegExpExecArray } => child.match !== null && child.name === `${table}${child.match[0]}`)
    .map(({ name, match }) => ({ name, month: new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) }))
    .sort((first, second) => first.month.getTime() - second.month.getTime());
}

/**
 * Creates the partition of `month` unless it exists. Rows of that month already in the default
 * partition are moved into it in the same transaction (PostgreSQL refuses to add a partition
 * while the default one holds rows of its range).
 */
export async function createMonthlyPartition(db: SqlRunner, partitioned: MonthlyPartitionedTable, month: Date): Promise<boolean> {
  const { table, column } = partitioned;
  const name = monthlyPartitionName(table, month);
  const [{ exists }] = await rows<{ exists: boolean }>(db, `SELECT to_regclass($1) IS NOT NULL AS exists`, [name]);
  if (exists) return false;
  const from = month.toISOString();
  const to = addMonths(month, 1).toISOString();
  const strays = defaultPartitionName(table);
  const [{ stray }] = await rows<{ stray: boolean }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM "${strays}" WHERE "${column}" >= $1 AND "${column}" < $2) AS stray`,
    [from, to],
  );
  if (stray) {
    const columns = (await insertableColumns(db, table)).join(', ');
    await db.query(`CREATE TEMPORARY TABLE partition_strays ON COMMIT DROP AS SELECT ${columns} FROM "${strays}" WHERE "${column}" >= $1 AND "${column}" < $2`, [from, to]);
    await db.query(`DELETE FROM "${strays}" WHERE "${column}" >= $1 AND "${column}" < $2`, [from, to]);
    await db.query(`CREATE TABLE "${name}" PARTITION OF "${table}" FOR VALUES FROM ('${from}') TO ('${to}')`);
    await db.query(`INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM partition_strays`);
    await db.query(`DROP TABLE partition_strays`);
  } else {
    await db.query(`CREATE TABLE "${name}" PARTITION OF "${table}" FOR VALUES FROM ('${from}') TO ('${to}')`);
  }
  return true;
}

/** Creates the partitions of `now`'s month and the MONTHS_AHEAD after it that are missing; returns how many it created. */
export async function createPartitionsAhead(db: SqlRunner, partitioned: MonthlyPartitionedTable, now: Date): Promise<number> {
  // A table listed before its migration has run (an instance of a newer version starting) has nothing to create yet.
  const [{ ready }] = await rows<{ ready: boolean }>(db, `SELECT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = to_regclass($1)) AS ready`, [partitioned.table]);
  if (!ready) return 0;
  let created = 0;
  for (let ahead = 0; ahead <= MONTHS_AHEAD; ahead += 1) {
    if (await createMonthlyPartition(db, partitioned, addMonths(monthStart(now), ahead))) created += 1;
  }
  return created;
}

/**
 * Detaches and drops the oldest monthly partition of `table` whose every row is older than
 * `cutoff` (its month ends at or before it), unless `keepIf` (SQL over the partition's name,
 * `$1`-free, e.g. "a pending delivery is still in it") says to keep it; returns how many rows it
 * held, or null when there was none to drop (or its lock could not be had at once: next run).
 * One partition per call: the caller's loop calls again. The boundary month and the default
 * partition are left to the row deletes.
 */
export async function dropOldestMonthlyPartition(db: SqlRunner, table: string, cutoff: Date, keepIf?: (partition: string) => string): Promise<number | null> {
  for (const { name, month } of await monthlyPartitions(db, table)) {
    if (addMonths(month, 1).getTime() > cutoff.getTime()) return null;
    if (keepIf) {
      const [{ keep }] = await rows<{ keep: boolean }>(db, `SELECT EXISTS (${keepIf(`"${name}"`)}) AS keep`);
      if (keep) continue;
    }
    const [{ count }] = await rows<{ count: number }>(db, `SELECT count(*)::int AS count FROM "${name}"`);
    // DETACH takes an ACCESS EXCLUSIVE lock on the parent: waited for, it would queue every request
    // of the table behind it. So it waits a moment at most, in a savepoint the batch survives.
    await db.query('SAVEPOINT drop_partition');
    try {
      await db.query(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`);
      await db.query(`ALTER TABLE "${table}" DETACH PARTITION "${name}"`);
      await db.query(`DROP TABLE "${name}"`);
      await db.query('RELEASE SAVEPOINT drop_partition');
    } catch (error) {
      if ((error as { code?: string }).code !== '55P03') throw error;
      await db.query('ROLLBACK TO SAVEPOINT drop_partition');
      return null;
    }
    return count;
  }
  return null;
}

/**
 * Migration step: turns `table` into a table partitioned by month on `column`, keeping its rows,
 * columns (defaults, generated columns, its sequence), indexes (same names and definitions) and
 * foreign keys to other tables; its primary key becomes (its columns, `column`), named as TypeORM
 * names it. Foreign keys from other tables to it can't survive (they would need a unique key
 * including the partition key in the referencing table): they are dropped only when listed in
 * `droppedReferences` (the caller says how integrity is kept without them), else this throws.
 * Creates the partitions of every month that has rows, this month and MONTHS_AHEAD after it, and
 * the default one. Run inside the migration's transaction: on failure nothing changed.
 */
export async function partitionByMonth(queryRunner: QueryRunner, table: string, column: string, droppedReferences: string[] = []): Promise<void> {
  await rebuild(queryRunner, table, { partitionColumn: column, droppedReferences });
}

/** The reverse of partitionByMonth (a migration's down): one plain table again, its primary key without `column`. */
export async function unpartition(queryRunner: QueryRunner, table: string, column: string): Promise<void> {
  await rebuild(queryRunner, table, { removedKeyColumn: column, droppedReferences: [] });
}

async function rebuild(queryRunner: QueryRunner, table: string, change: { partitionColumn?: string; removedKeyColumn?: string; droppedReferences: string[] }): Promise<void> {
  const db: SqlRunner = queryRunner;
  const old = `${table}_unpartitioned`;
  const [primaryKey] = await rows<{ name: string; columns: string[] }>(
    db,
    `SELECT conname AS name, array(SELECT attname::text FROM unnest(conkey) WITH ORDINALITY AS key(attnum, position) JOIN pg_attribute ON attrelid = conrelid AND pg_attribute.attnum = key.attnum ORDER BY position) AS columns
     FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`,
    [table],
  );
  const unique = await rows<{ name: string }>(db, `SELECT conname AS name FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('u', 'x')`, [table]);
  if (unique.length > 0) throw new Error(`${table}: unique constraints ${unique.map(({ name }) => name).join(', ')} would need the partition key; not handled`);
  const indexes = await rows<{ name: string; definition: string }>(
    db,
    `SELECT index.relname AS name, pg_get_indexdef(index.oid) AS definition FROM pg_index JOIN pg_class index ON index.oid = pg_index.indexrelid
     WHERE pg_index.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = index.oid AND conrelid = pg_index.indrelid)`,
    [table],
  );
  const foreignKeys = await rows<{ name: string; definition: string }>(
    db,
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f' AND conparentid = 0`,
    [table],
  );
  const references = await rows<{ name: string; referencing: string }>(
    db,
    `SELECT conname AS name, conrelid::regclass::text AS referencing FROM pg_constraint WHERE confrelid = $1::regclass AND contype = 'f' AND conparentid = 0`,
    [table],
  );
  const unexpected = references.filter(({ referencing }) => !change.droppedReferences.includes(referencing));
  if (unexpected.length > 0) throw new Error(`${table} is referenced by ${unexpected.map(({ referencing, name }) => `${referencing} (${name})`).join(', ')}: list them in droppedReferences`);
  const sequences = await rows<{ sequence: string; column: string }>(
    db,
    `SELECT sequence.relname AS sequence, attname AS column FROM pg_depend JOIN pg_class sequence ON sequence.oid = pg_depend.objid AND sequence.relkind = 'S'
     JOIN pg_attribute ON attrelid = pg_depend.refobjid AND attnum = pg_depend.refobjsubid WHERE pg_depend.refobjid = $1::regclass AND pg_depend.deptype = 'a'`,
    [table],
  );

  for (const { name, referencing } of references) await db.query(`ALTER TABLE ${referencing} DROP CONSTRAINT "${name}"`);
  for (const { name } of indexes) await db.query(`DROP INDEX "${name}"`);
  if (primaryKey) await db.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${primaryKey.name}"`);
  await db.query(`ALTER TABLE "${table}" RENAME TO "${old}"`);

  const like = `LIKE "${old}" INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMMENTS`;
  if (change.partitionColumn) {
    await db.query(`CREATE TABLE "${table}" (${like}) PARTITION BY RANGE ("${change.partitionColumn}")`);
  } else {
    await db.query(`CREATE TABLE "${table}" (${like})`);
  }
  // The sequence belongs to the old table's column: it would go with it.
  for (const { sequence, column } of sequences) await db.query(`ALTER SEQUENCE "${sequence}" OWNED BY "${table}"."${column}"`);

  if (change.partitionColumn) {
    const partitioned = { table, column: change.partitionColumn };
    const months = await rows<{ month: Date }>(
      db,
      `SELECT DISTINCT date_trunc('month', "${change.partitionColumn}" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM "${old}"`,
    );
    await db.query(`CREATE TABLE "${defaultPartitionName(table)}" PARTITION OF "${table}" DEFAULT`);
    for (const { month } of months) await createMonthlyPartition(db, partitioned, monthStart(new Date(month)));
    const [{ now }] = await rows<{ now: Date }>(db, 'SELECT now() AS now');
    await createPartitionsAhead(db, partitioned, new Date(now));
  }

  const columns = (await insertableColumns(db, old)).join(', ');
  await db.query(`INSERT INTO "${table}" (${columns}) SELECT ${columns} FROM "${old}"`);

  if (primaryKey) {
    const keyColumns = change.partitionColumn
      ? [...primaryKey.columns.filter((key) => key !== change.partitionColumn), change.partitionColumn]
      : primaryKey.columns.filter((key) => key !== change.removedKeyColumn);
    const name = queryRunner.connection.namingStrategy.primaryKeyName(table, keyColumns);
    await db.query(`ALTER TABLE "${table}" ADD CONSTRAINT "${name}" PRIMARY KEY (${keyColumns.map((key) => `"${key}"`).join(', ')})`);
  }
  // Each definition names `table`, which is now the new one (they were read before the rename).
  // A partitioned table's index reads `ON ONLY`: the plain table of a down takes it without.
  for (const { definition } of indexes) await db.query(definition.replace(' ON ONLY ', ' ON '));
  for (const { name, definition } of foreignKeys) await db.query(`ALTER TABLE "${table}" ADD CONSTRAINT "${name}" ${definition}`);
  await db.query(`DROP TABLE "${old}"`);
}
