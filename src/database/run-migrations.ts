import { DataSource } from 'typeorm';

/** Arbitrary constant naming this service's migration lock. */
const MIGRATION_LOCK_ID = 727_001;

/**
 * Runs pending migrations at start. On a shared PostgreSQL an advisory lock keeps two instances
 * starting together from running them twice; the embedded database has one pooled connection
 * and one process, so it needs none (and taking one would hold the only connection).
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
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}
