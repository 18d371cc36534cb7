import { DataSource, MigrationExecutor } from 'typeorm';
import { buildDataSourceOptions, EntityList } from './data-source-options';

/** Arbitrary constant naming this service's migration lock. */
const MIGRATION_LOCK_ID = 727_001;

/**
 * Runs pending migrations at start. On a shared PostgreSQL a lock keeps two instances starting
 * together from running them twice: a transaction-level advisory lock, taken first in the one
 * transaction that then reads which migrations ran and runs the pending ones, so it holds through
 * a transaction pooler too (PgBouncer in transaction mode keeps no session, and a session-level
 * lock taken on one server connection could be released on another: DESIGN §15). Timeouts are off
 * for that transaction only (SET LOCAL): building an index on a large table may take longer than
 * any request should. Pending migrations apply together or not at all. The embedded database has
 * one pooled connection and one process, so it needs no lock and has no timeouts.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const poolSize = (dataSource.options.extra as { max?: number } | undefined)?.max ?? 10;
  if (poolSize <= 1) {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await runner.query('SET LOCAL statement_timeout = 0');
    await runner.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    // 'all' on a runner already in a transaction: the executor opens none of its own.
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all';
    await executor.executePendingMigrations();
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/**
 * The same at DATABASE_MIGRATION_URL, a direct connection when DATABASE_URL is a transaction pooler:
 * a pool of its own, without timeouts, closed when done.
 */
export async function runMigrationsAt(url: string, entities: EntityList): Promise<void> {
  const dataSource = await new DataSource(buildDataSourceOptions(url, false, entities)).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
