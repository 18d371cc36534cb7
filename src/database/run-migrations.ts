import { DataSource, MigrationExecutor } from 'typeorm';

/** Arbitrary constant naming this service's migration lock. */
const MIGRATION_LOCK_ID = 727_001;

/**
 * Runs pending migrations at start. On a shared PostgreSQL an advisory lock keeps two instances
 * starting together from running them twice, and the migrations run on that same session with
 * statement_timeout off: building an index on a large table may take longer than any request
 * should. The embedded database has one pooled connection and one process, so it needs no lock
 * (and taking one would hold the only connection) and has no timeouts.
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
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await runner.query('SET statement_timeout = 0');
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    await executor.executePendingMigrations();
  } finally {
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
